;;; kesi-plan.el --- The run's plan at the head of *kesi*, and the server's verdict  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Day 01's finished KeSi "lists what it will do, item by item" (你會看到它把要做的事一條一條
;; 列出來), and the user watches the list move.  `kesi/plan' {runId, items: [{content,
;; status}]} carries the whole list each time (design §2.10); it sits at the head of `*kesi*'
;; while the run lives, replaced in place by each update, and the mode line names the step in
;; progress.  When the run ends the list leaves the head and its final state is written into
;; the run's story, where it stays.
;;
;; `kesi/runFinished.verified' {status, text, by, detail} is the server's verdict on the run's
;; changes, from what really ran after the last one (never the model's word): a line before
;; the bill, a word beside it, a mark in the mode line.
;;
;; The verdict's words are the server's (`text', in the session's locale).  `kesi/plan'
;; carries only the items, so the package keeps a copy of the catalog's `plan.line' (its
;; head) and `plan.step' in both locales; tests/emacs/test_words.py keeps the copy true.

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

(defconst kesi--plan-words
  '((head "Plan (%d/%d done)" "計畫（完成 %d/%d）")
    (step "step %d/%d: %s" "第 %d/%d 步：%s")
    (verified "verified" "已驗證")
    (failed "verification failed" "驗證失敗")
    (unverified "unverified" "未驗證")
    (colon ": " "："))
  "The server's words for the plan and the verdict, English and zh-TW.
Its catalog's `plan.line' (without the steps), `plan.step' and
`verify.status.*', and the colon before a verdict's detail.")

(defun kesi-plan--word (key &rest args)
  "The words of KEY in the session's locale, formatted with ARGS."
  (let ((words (alist-get key kesi--plan-words)))
    (apply #'format (if (equal (kesi-output-locale) "zh-TW") (cadr words) (car words)) args)))

(defconst kesi-plan-marks
  '(("completed" "✓" kesi-plan-done) ("in_progress" "▶" kesi-plan-active)
    ("pending" "○" kesi-plan-pending))
  "Each status of a step: its mark and its face.")

;;;; The plan

(defun kesi-plan-items (params)
  "The items of a `kesi/plan' PARAMS as a list of plists."
  (append (plist-get params :items) nil))

(defun kesi-plan-step (items)
  "The step of ITEMS in progress as \"step 2/3: Fix the sign\", or nil."
  (cl-loop for item in items
           for number from 1
           when (equal (plist-get item :status) "in_progress")
           return (kesi-plan--word 'step number (length items)
                                   (format "%s" (plist-get item :content)))))

(defun kesi-plan-lines (items &optional title)
  "ITEMS as propertized lines: a head (with TITLE), then one line per step."
  (let ((done (cl-count "completed" items :key (lambda (i) (plist-get i :status))
                        :test #'equal)))
    (cons (propertize (concat (kesi-plan--word 'head done (length items))
                              (if (and title (not (string-empty-p title)))
                                  (concat " · " title) ""))
                      'face 'kesi-header)
          (mapcar (lambda (item)
                    (let ((mark (or (cdr (assoc (plist-get item :status) kesi-plan-marks))
                                    '("·" kesi-plan-pending)))
                          (content (replace-regexp-in-string
                                    "\n" " " (format "%s" (plist-get item :content)))))
                      (propertize (format "  %s %s" (car mark) content) 'face (cadr mark))))
                  items))))

(defun kesi-plan-show (run-id params)
  "Show the plan of `kesi/plan' PARAMS at the head of `*kesi*'; RUN-ID keeps it."
  (let ((items (kesi-plan-items params)))
    (kesi--run-put run-id :plan items)
    (kesi-output-set-head (kesi-plan-lines items (plist-get (kesi-output-run run-id) :title)))))

(defun kesi-plan-clear ()
  "Take the plan off the head of `*kesi*' (a run ended, or a new one starts)."
  (kesi-output-set-head nil))

(defun kesi-plan-record (run-id)
  "The run RUN-ID ended: its plan leaves the head, its final state joins the story."
  (when-let ((items (plist-get (kesi-output-run run-id) :plan)))
    (kesi-plan-clear)
    (kesi--line (string-join (kesi-plan-lines items) "\n"))))

;;;; The verdict

(defun kesi-plan-verdict (verified)
  "The word of the server's verdict VERIFIED ({status, text, by, detail}), or nil.
The server's own word (`text', the session's locale); for a server that sends
only the status, the same words from `kesi--plan-words'."
  (let ((status (and (consp verified) (plist-get verified :status)))
        (word (and (consp verified) (plist-get verified :text))))
    (if (and (stringp word) (not (string-empty-p word)))
        word
      (pcase status
        ("verified" (kesi-plan--word 'verified))
        ("failed" (kesi-plan--word 'failed))
        ("unverified" (kesi-plan--word 'unverified))))))

(defun kesi-plan-verdict-mark (verified)
  "The mark of VERIFIED's status: ✓, ✗ or ?."
  (pcase (plist-get verified :status) ("verified" "✓") ("failed" "✗") (_ "?")))

(defun kesi-plan-verdict-line (verified)
  "The story's line for the verdict VERIFIED: its mark, word and detail."
  (when-let ((word (kesi-plan-verdict verified)))
    (let ((detail (plist-get verified :detail)))
      (propertize (concat (kesi-plan-verdict-mark verified) " " word
                          (if (and (stringp detail) (not (string-empty-p detail)))
                              (concat (kesi-plan--word 'colon) detail) ""))
                  'face (pcase (plist-get verified :status)
                          ("verified" 'kesi-verified) ("failed" 'kesi-verify-failed)
                          (_ 'kesi-unverified))))))

(provide 'kesi-plan)
;;; kesi-plan.el ends here
