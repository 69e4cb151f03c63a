;;; kesi-changes.el --- Keeping and undoing KeSi's changes  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The server keeps every change a run made, hunk by hunk (design §2.9).  Those you have not
;; kept or undone yet are flymake notes from the `KeSi' source, and `M-x eglot-code-actions'
;; inside one offers to keep or undo it.  Here: `kesi-changes' lists them in a buffer you can
;; jump from (`compilation-mode': RET, `n', `p'), `kesi-keep' and `kesi-undo' act on the change
;; at point (else on the file's), `kesi-undo-run' takes back a whole run.  The server's answer
;; (what was done, what was already so, what was left alone and why) goes to the echo area, for
;; the code actions too.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eglot)
(require 'flymake)
(require 'kesi-eglot)

(defun kesi--hunk-at-point ()
  "The id of the KeSi change (hunk) at point, from its flymake note."
  (cl-loop
   for diag in (and (bound-and-true-p flymake-mode)
                    (flymake-diagnostics (line-beginning-position) (line-end-position)))
   for lsp = (alist-get 'eglot-lsp-diag (flymake-diagnostic-data diag))
   for data = (and lsp (plist-get lsp :data))
   when (and data (equal (plist-get lsp :source) "KeSi") (plist-get data :hunkId))
   return (plist-get data :hunkId)))

(defun kesi--say-outcome (result)
  "Show what a keep or undo RESULT says; refresh flymake's notes."
  (let ((said (and (listp result) (plist-get result :message))))
    (when (and (stringp said) (not (string-empty-p said)))
      (message "%s" said)))
  (when (bound-and-true-p flymake-mode)
    (flymake-start)))

(defun kesi--change-command (command argument)
  "Send the change COMMAND with ARGUMENT to KeSi; show its answer."
  (kesi--execute (kesi--server) command argument #'kesi--say-outcome))

(defun kesi--here (whole)
  "The argument naming the change at point, else this file.
With WHOLE, always this file."
  (let ((uri (kesi--uri))
        (hunk (and (not whole) (kesi--hunk-at-point))))
    (cond ((and uri hunk) (list :uri uri :hunkId hunk))
          (uri (list :uri uri))
          (t nil))))

(defun kesi-eglot-keep (&optional all)
  "Keep KeSi's change at point, else this file's.
With ALL, every change of the project."
  (let ((argument (kesi--here nil)))
    (when all
      (setq argument (append (and argument (list :uri (plist-get argument :uri)))
                             (list :all t))))
    (kesi--change-command "kesi.keep" argument)))

(defun kesi-eglot-undo (&optional whole)
  "Undo KeSi's change at point, else this file's (with WHOLE, the file's)."
  (kesi--change-command "kesi.undo" (kesi--here whole)))

(defun kesi-eglot-undo-run (&optional run-id)
  "Undo every change of the last run, or of RUN-ID."
  (let ((argument (and (kesi--uri) (list :uri (kesi--uri)))))
    (when (and run-id (not (string-empty-p run-id)))
      (setq argument (append argument (list :runId run-id))))
    (kesi--change-command "kesi.undoRun" argument)))

;;;; The list

(defun kesi--change-lines (listing root)
  "One `FILE:LINE: text' line per pending hunk of LISTING.
Files are relative to ROOT."
  (cl-loop
   for run across (plist-get listing :runs)
   append
   (cl-loop
    for file across (plist-get run :files)
    for path = (file-relative-name (kesi--uri-to-path (plist-get file :uri)) root)
    append
    (cl-loop
     for hunk across (plist-get file :hunks)
     when (equal (plist-get hunk :state) "pending")
     collect (format "%s:%d: KeSi %s: −%d +%d · %s"
                     path
                     (1+ (plist-get (plist-get (plist-get hunk :range) :start) :line))
                     (plist-get hunk :id)
                     (plist-get hunk :removed)
                     (plist-get hunk :added)
                     (plist-get run :task))))))

(defun kesi--show-changes (listing root)
  "Show LISTING's pending hunks in `*kesi changes*', from ROOT.
The buffer is in `compilation-mode': RET jumps to a change."
  (let ((lines (kesi--change-lines listing root)))
    (if (null lines)
        (message "KeSi: no change waits for your review")
      (with-current-buffer (get-buffer-create "*kesi changes*")
        (let ((inhibit-read-only t))
          (erase-buffer)
          (setq default-directory root)
          (insert (format "KeSi's changes not reviewed yet, in %s\n\n" root))
          (dolist (line lines) (insert line "\n")))
        (compilation-mode)
        (goto-char (point-min))
        (display-buffer (current-buffer))))))

(defun kesi-eglot-changes ()
  "List KeSi's changes you have not kept or undone yet."
  (let* ((server (kesi--server))
         (root (expand-file-name (project-root (eglot--project server)))))
    (kesi--execute server "kesi.changes" (list :uri (kesi--path-to-uri root))
                   (lambda (listing) (kesi--show-changes listing root)))))

;;;; Code actions and lenses: show the server's answer

(defconst kesi--change-commands '("kesi.keep" "kesi.undo" "kesi.undoRun")
  "The server commands of KeSi's code actions on its changes.")

;; Eglot 1.16 and newer call `eglot-execute' instead: its one :around method for KeSi
;; is in kesi-run.el, and sends these commands here.

(defun kesi--run-change-action (server command argument)
  "Send a code action's COMMAND with ARGUMENT to SERVER; show the answer."
  (kesi--execute server command argument #'kesi--say-outcome))

(cl-defmethod eglot-execute-command
  ((server kesi-server) (command (eql kesi.keep)) arguments)
  "A code action's \"KeSi: keep this change\" (eglot 1.9 to 1.15)."
  (kesi--run-change-action server (symbol-name command) (elt arguments 0)))

(cl-defmethod eglot-execute-command
  ((server kesi-server) (command (eql kesi.undo)) arguments)
  "A code action's \"KeSi: undo this change\" (eglot 1.9 to 1.15)."
  (kesi--run-change-action server (symbol-name command) (elt arguments 0)))

(cl-defmethod eglot-execute-command
  ((server kesi-server) (command (eql kesi.undoRun)) arguments)
  "A code action's \"KeSi: undo the last run\" (eglot 1.9 to 1.15)."
  (kesi--run-change-action server (symbol-name command) (elt arguments 0)))

(provide 'kesi-changes)
;;; kesi-changes.el ends here
