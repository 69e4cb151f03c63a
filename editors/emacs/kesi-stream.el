;;; kesi-stream.el --- What each piece of a run's story writes in *kesi*  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `kesi/stream' {runId, kind, ...} and `kesi/runFinished' (design §2.5, §2.13), turned into
;; lines of the `*kesi*' buffer and the run's state (kesi-output.el keeps both).
;;
;; The server renders every line of the story in the session's locale: each event but model
;; text carries its `lines' (a tool call with its detail, a result, a notice, an applied edit
;; with its diff, a search's sub-total after its call's result, a summary's bill), a
;; sub-agent's already indented under the call that started it.  This file only places them
;; and gives each its face; model text streams in as prose, a sub-agent's indented by its
;; `depth'.  `kesi/plan' stands at the head of the buffer while its run lives (kesi-plan.el).
;; The end of a run is the server's too: the close of its story (why it stopped, the verdict
;; and what it rests on), then its last `line' (status, verdict, Day 18's bill).
;; A call whose input is still arriving (`toolInput', Day 17) shows the server's progress line
;; in place: each report replaces the last, and whatever comes next replaces it.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'kesi)
(require 'kesi-output)
(require 'kesi-plan)

(defconst kesi-stream-indent "    " "How far a sub-agent's text is indented, per level.")

;;;; The story as it streams

(defconst kesi-stream--calm '("resume" "compaction" "info")
  "Notice kinds that only inform: a resumed conversation, a summary of it.")

(defun kesi-stream--faces (params)
  "The faces of the lines of a `kesi/stream' event PARAMS: (FIRST . REST).
REST is for the lines after the first: a search's bill after its call's
result; an edit's diff has none."
  (pcase (plist-get params :kind)
    ("toolStart" '(kesi-tool . kesi-tool))
    ("toolEnd" (cons (if (eq (plist-get params :isError) t) 'kesi-tool-error 'kesi-tool-ok)
                     'kesi-cost))
    ("notice" (let ((face (cond ((member (plist-get params :notice) '("workspace" "sandbox"))
                                 'kesi-startup)
                                ((member (plist-get params :notice) kesi-stream--calm)
                                 'kesi-info)
                                (t 'kesi-notice))))
                (cons face face)))
    ("usage" '(kesi-cost . kesi-cost))
    ("edit" '(kesi-tool-ok . nil))))

(defun kesi-stream-lines (params)
  "The lines the server rendered for PARAMS (its `lines')."
  (mapcar (lambda (line) (format "%s" line)) (plist-get params :lines)))

(defun kesi-stream--show (params)
  "Append the server's lines of the `kesi/stream' event PARAMS, each with its face."
  (let ((faces (kesi-stream--faces params)) (first t))
    (dolist (line (kesi-stream-lines params))
      (kesi--line line (if first (car faces) (cdr faces)))
      (setq first nil))))

(defvar kesi-stream--progress nil
  "Markers (START . END) around the in-place line of a call whose input arrives.")

(defun kesi-stream--settle ()
  "Remove the in-place progress line, if one is shown: what comes next replaces it."
  (when-let ((shown kesi-stream--progress))
    (setq kesi-stream--progress nil)
    (when (buffer-live-p (marker-buffer (car shown)))
      (with-current-buffer (marker-buffer (car shown))
        (let ((inhibit-read-only t))
          (delete-region (car shown) (cdr shown)))))))

(defun kesi-stream--in-place (params)
  "Show the progress line of the `toolInput' event PARAMS in place of the last."
  (let ((line (plist-get params :line)))
    (when (and (stringp line) (not (string-empty-p line)))
      (kesi-stream--settle)
      (let ((start (kesi--line line 'kesi-tool)))
        (setq kesi-stream--progress
              (cons start (with-current-buffer (marker-buffer start)
                            (copy-marker (point-max)))))))))

(defun kesi--usage (server run-id params)
  "The costs a usage event PARAMS of RUN-ID (SERVER's) reports."
  (let ((run (plist-get params :run)) (session (plist-get params :session)))
    (when (numberp (plist-get run :costUsd))
      (kesi--run-put run-id :cost (plist-get run :costUsd)))
    (when (numberp (plist-get session :costUsd))
      (kesi-output-note-session-cost server session))))

(defun kesi--turn (run-id params depth)
  "A turn of RUN-ID (PARAMS), in the server's words: the run's own at DEPTH 0,
else its sub-agent's, whose words name it: \"search agent: turn 2 of at most 10\"."
  (let ((label (plist-get params (if (> depth 0) :nestedLabel :label))))
    (when (numberp (plist-get params :turn))
      (kesi--run-put run-id (if (> depth 0) :nested-turn :turn) (and (stringp label) label)))))

(defun kesi-stream-event (server params)
  "Show one `kesi/stream' notification PARAMS of SERVER."
  (let* ((run-id (plist-get params :runId))
         (depth (if (natnump (plist-get params :depth)) (plist-get params :depth) 0)))
    (when (stringp run-id)
      (kesi--ensure-run server run-id nil)
      (unless (equal (plist-get params :kind) "toolInput") (kesi-stream--settle))
      (pcase (plist-get params :kind)
        ("text" (kesi--text (or (plist-get params :text) "")
                            (apply #'concat (make-list depth kesi-stream-indent))))
        ("toolInput" (kesi-stream--in-place params))
        (_ (kesi-stream--show params)))
      (pcase (plist-get params :kind)
        ("toolEnd" (when (= depth 0) (kesi--run-put run-id :nested-turn nil)))
        ("turn" (kesi--turn run-id params depth))
        ("usage" (kesi--usage server run-id params))))))

;;;; The plan

(defun kesi-stream-plan (server params)
  "Show the plan of `kesi/plan' PARAMS of SERVER at the head of `*kesi*'."
  (let ((run-id (plist-get params :runId)))
    (when (and (stringp run-id) (plist-get params :items))
      (kesi--ensure-run server run-id nil)
      (if (plist-get (kesi-output-run run-id) :finished)
          (kesi--run-put run-id :plan params) ; too late for the head
        (kesi-plan-show run-id params)))))

;;;; The end of a run

(defun kesi-stream-close (params)
  "The close of the story of `kesi/runFinished' PARAMS but its bill.
The server's lines: why it stopped, the verdict and what it rests on; the
bill is in the run's last line."
  (let ((bill (plist-get params :bill)))
    (cl-remove-if (lambda (line) (and (stringp bill) (string-search bill line)))
                  (kesi-stream-lines params))))

(defun kesi-stream-finish (server params)
  "The end of a run (`kesi/runFinished' PARAMS of SERVER), in the server's words."
  (let* ((run-id (plist-get params :runId))
         (status (or (plist-get params :status) "done"))
         (usage (plist-get params :usage))
         (verified (plist-get params :verified))
         (text (plist-get params :text))
         (why (and (not (equal status "done")) (stringp text) (not (string-empty-p text))))
         (footer (format "%s" (or (plist-get params :line) status))))
    (when (stringp run-id)
      (kesi--ensure-run server run-id nil)
      (kesi-stream--settle)
      (when (numberp (plist-get usage :costUsd))
        (kesi--run-put run-id :cost (plist-get usage :costUsd)))
      (when-let ((session (plist-get params :sessionUsage)))
        (kesi-output-note-session-cost server session))
      (kesi--run-put run-id :status status)
      (kesi--run-put run-id :limit (plist-get params :limit))
      (kesi--run-put run-id :nested-turn nil)
      (kesi--run-put run-id :finished (cl-incf kesi--finished-count))
      (when (equal (gethash server kesi--active) run-id)
        (remhash server kesi--active))
      (kesi--run-put run-id :verified verified)
      (kesi-plan-record run-id)
      (dolist (line (kesi-stream-close params))
        (kesi--line line (kesi-plan-verdict-face verified)))
      (kesi--line (concat "── " footer)
                  (pcase status ("done" 'kesi-done) ("failed" 'kesi-failed) (_ 'kesi-stopped)))
      (message "KeSi: %s%s" footer (if why (concat " · " (car (split-string text "\n"))) "")))))

(provide 'kesi-stream)
;;; kesi-stream.el ends here
