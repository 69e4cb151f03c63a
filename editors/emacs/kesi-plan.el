;;; kesi-plan.el --- The run's plan at the head of *kesi*, and the server's verdict  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Day 01's finished KeSi "lists what it will do, item by item" (你會看到它把要做的事一條一條
;; 列出來), and the user watches the list move.  `kesi/plan' {runId, items, title, lines,
;; current} carries the whole list each time, worded by the server in the session's locale
;; (design §2.10, §2.13): its head, one line per item with its status mark, the step in
;; progress.  It sits at the head of `*kesi*' while the run lives, replaced in place by each
;; update, and the mode line names the step in progress.  When the run ends the list leaves
;; the head and its final state is written into the run's story, where it stays.
;;
;; `kesi/runFinished.verified' {status, text, by, detail} is the server's verdict on the run's
;; changes, from what really ran after the last one (never the model's word): its lines end the
;; story, its word (`text') stands in the mode line with a mark.  This file gives them faces.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'kesi)
(require 'kesi-output)

(defface kesi-plan-done '((t :inherit shadow))
  "A step of the plan that is done."
  :group (quote kesi))
(defface kesi-plan-active '((t :inherit font-lock-keyword-face :weight bold))
  "The step of the plan in progress."
  :group (quote kesi))
(defface kesi-plan-pending '((t :inherit default))
  "A step of the plan still to do."
  :group (quote kesi))
(defface kesi-verified '((t :inherit success :weight bold))
  "The verdict on a run whose changes a check passed after the last one."
  :group (quote kesi))
(defface kesi-unverified '((t :inherit warning))
  "The verdict on a run whose changes nothing checked after the last one."
  :group (quote kesi))
(defface kesi-verify-failed '((t :inherit error :weight bold))
  "The verdict on a run whose last check failed."
  :group (quote kesi))

(defconst kesi-plan-faces
  '(("completed" . kesi-plan-done) ("in_progress" . kesi-plan-active)
    ("pending" . kesi-plan-pending))
  "The face of a step of each status.")

;;;; The plan

(defun kesi-plan-step (plan)
  "The step of PLAN (`kesi/plan' params) in progress, or nil.
In the server's words (`current')."
  (let ((current (plist-get plan :current)))
    (and (stringp current) current)))

(defun kesi-plan-lines (plan &optional title)
  "PLAN (`kesi/plan' params) as propertized lines.
Its head (with TITLE), then its steps, in the server's words."
  (let ((head (format "%s" (or (plist-get plan :title) "")))
        (lines (append (plist-get plan :lines) nil)))
    (cons (propertize (if (and title (not (string-empty-p title))) (concat head " · " title) head)
                      'face 'kesi-header)
          (cl-loop for item in (append (plist-get plan :items) nil)
                   for line = (pop lines)
                   collect (propertize
                            (concat "  " (replace-regexp-in-string
                                          "\n" " " (format "%s" (or line (plist-get item :content)))))
                            'face (or (cdr (assoc (plist-get item :status) kesi-plan-faces))
                                      'kesi-plan-pending))))))

(defun kesi-plan-show (run-id params)
  "Show the plan of `kesi/plan' PARAMS at the head of `*kesi*'; RUN-ID keeps it."
  (kesi--run-put run-id :plan params)
  (kesi-output-set-head (kesi-plan-lines params (plist-get (kesi-output-run run-id) :title))))

(defun kesi-plan-clear ()
  "Take the plan off the head of `*kesi*' (a run ended, or a new one starts)."
  (kesi-output-set-head nil))

(defun kesi-plan-record (run-id)
  "The run RUN-ID ended: its plan leaves the head, its final state joins the story."
  (when-let ((plan (plist-get (kesi-output-run run-id) :plan)))
    (kesi-plan-clear)
    (kesi--line (string-join (kesi-plan-lines plan) "\n"))))

;;;; The verdict

(defun kesi-plan-verdict (verified)
  "The server's word for its verdict VERIFIED ({status, text, by, detail}), or nil."
  (let ((word (and (consp verified) (plist-get verified :text))))
    (and (stringp word) (not (string-empty-p word)) word)))

(defun kesi-plan-verdict-mark (verified)
  "The mark of VERIFIED's status: ✓, ✗ or ?."
  (pcase (plist-get verified :status) ("verified" "✓") ("failed" "✗") (_ "?")))

(defun kesi-plan-verdict-face (verified)
  "The face of the lines of the verdict VERIFIED (the notice's without one)."
  (pcase (and (consp verified) (plist-get verified :status))
    ("verified" 'kesi-verified) ("failed" 'kesi-verify-failed) ("unverified" 'kesi-unverified)
    (_ 'kesi-notice)))

(provide 'kesi-plan)
;;; kesi-plan.el ends here
