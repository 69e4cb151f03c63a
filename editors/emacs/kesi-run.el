;;; kesi-run.el --- Starting KeSi's runs, and the session commands  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; "KeSi: fix this" on the current line or the region's lines, with flymake's diagnostics
;; there (from any backend), also when it comes from `eglot-code-actions'; `kesi-ask';
;; `kesi-cancel'; `kesi-compact' (a short run of its own); the session commands (reset,
;; cost, permissions, revoke).  Each sends one
;; `workspace/executeCommand' with KeSi's single object argument (design §2.3).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eglot)
(require 'flymake)
(require 'kesi-eglot)
(require 'kesi-output)
(require 'kesi-diagnostics)
(require 'kesi-changes)
(require 'kesi-tasks)

(defun kesi--line-range (line1 line2)
  "The LSP range of whole lines LINE1..LINE2 (1-based).
It ends where line LINE2 + 1 begins, so no column needs an encoding."
  (list :start (list :line (1- line1) :character 0)
        :end (list :line line2 :character 0)))

(defun kesi--diagnostics (line1 line2)
  "Flymake's diagnostics on lines LINE1..LINE2, from any backend, as LSP's."
  (let ((beg (save-excursion (goto-char (point-min)) (forward-line (1- line1)) (point)))
        (end (save-excursion (goto-char (point-min)) (forward-line (1- line2))
                             (line-end-position))))
    (kesi-diagnostics-between beg end)))

(defun kesi--relative (server file)
  "FILE relative to SERVER's project root."
  (file-relative-name file (project-root (eglot--project server))))

(defun kesi--lines ()
  "The lines (FIRST . LAST) of the region when active, else the current line's."
  (if (use-region-p)
      (let ((end (region-end)))
        (cons (line-number-at-pos (region-beginning))
              (line-number-at-pos (if (and (> end (region-beginning))
                                           (save-excursion (goto-char end) (bolp)))
                                      (1- end)
                                    end))))
    (let ((line (line-number-at-pos)))
      (cons line line))))

(defun kesi--span (first last)
  "\"3\" or \"2-3\"."
  (if (= first last) (number-to-string first) (format "%d-%d" first last)))

(defun kesi-eglot-fix (&optional instruction)
  "Start \"KeSi: fix this\" on the current line or the region's lines."
  (let* ((server (kesi--server))
         (uri (or (kesi--uri) (user-error "KeSi: fix this works on a file buffer")))
         (lines (kesi--lines))
         (argument (list :uri uri
                         :range (kesi--line-range (car lines) (cdr lines))
                         :diagnostics (kesi--diagnostics (car lines) (cdr lines)))))
    (when (and instruction (not (string-empty-p (string-trim instruction))))
      (setq argument (append argument (list :instruction instruction))))
    (deactivate-mark)
    (kesi--start-run server "kesi.fixThis" argument
                     (format "fix this · %s:%s" (kesi--relative server buffer-file-name)
                             (kesi--span (car lines) (cdr lines))))))

(defun kesi--fix-action (server argument)
  "Run a code action's `kesi.fixThis' ARGUMENT on SERVER like `kesi-fix-this'.
Eglot puts only this server's diagnostics in the code action's context;
a linter's or a test runner's on the same lines matter as much."
  (let* ((uri (plist-get argument :uri))
         (range (plist-get argument :range))
         (line1 (1+ (plist-get (plist-get range :start) :line)))
         (end (plist-get range :end))
         (line2 (max line1 (if (and (eq (plist-get end :character) 0)
                                    (> (1+ (plist-get end :line)) line1))
                               (plist-get end :line)
                             (1+ (plist-get end :line)))))
         (file (and (stringp uri) (kesi--uri-to-path uri)))
         (buffer (and file (find-buffer-visiting file))))
    (when (and buffer (zerop (length (plist-get argument :diagnostics))))
      (setq argument (plist-put (copy-sequence argument) :diagnostics
                                (with-current-buffer buffer (kesi--diagnostics line1 line2)))))
    (kesi--start-run server "kesi.fixThis" argument
                     (if file
                         (format "fix this · %s:%s" (kesi--relative server file)
                                 (kesi--span line1 line2))
                       "fix this"))))

(cl-defmethod eglot-execute-command
  ((server kesi-server) (_command (eql kesi.fixThis)) arguments)
  "A code action's \"KeSi: fix this\" (eglot 1.9 to 1.15)."
  (kesi--fix-action server (elt arguments 0)))

(when (fboundp 'eglot-execute)              ; eglot 1.16 and newer
  (cl-defmethod eglot-execute :around ((server kesi-server) action)
    "A code action's \"KeSi: fix this\", or one on KeSi's changes (eglot 1.16+)."
    (let* ((command (if (stringp (plist-get action :command)) action
                      (plist-get action :command)))
           (name (and command (plist-get command :command)))
           (argument (and command (elt (plist-get command :arguments) 0))))
      (cond ((plist-get action :edit) (cl-call-next-method))
            ((equal name "kesi.fixThis") (kesi--fix-action server argument))
            ((member name kesi--change-commands)
             (kesi--run-change-action server name argument))
            (t (cl-call-next-method))))))

(defun kesi-eglot-ask (prompt)
  "Start a run that does PROMPT (about the region's lines, when active)."
  (when (string-empty-p (string-trim prompt))
    (user-error "KeSi: say what to do, e.g. why does test_add fail?"))
  (let* ((server (kesi--server))
         (argument (list :prompt prompt))
         (short (string-trim (replace-regexp-in-string "[ \t\n]+" " " prompt))))
    (when-let ((uri (kesi--uri)))
      (setq argument (append argument (list :uri uri)))
      (when (use-region-p)
        (let ((lines (kesi--lines)))
          (setq argument (append argument
                                 (list :range (kesi--line-range (car lines) (cdr lines))))))))
    (deactivate-mark)
    (kesi--start-run server "kesi.ask" argument
                     (format "ask · %s" (truncate-string-to-width short 60 nil nil "…")))))

(defun kesi-eglot-cancel ()
  "Cancel this server's running run."
  (let* ((server (kesi--server))
         (run (kesi-output-active-run server)))
    (kesi--execute server "kesi.cancel" (if run (list :runId run) nil)
                   (lambda (result)
                     (message (if (eq (plist-get result :cancelled) t)
                                  "KeSi: cancelling the run"
                                "KeSi: nothing is running"))))))

(defun kesi-eglot-compact ()
  "Summarise the older part of this session's conversation now (`kesi.compact').
It is a short run of its own: its notice and the summary's bill line go to
`*kesi*', and it ends like any run."
  (let ((server (kesi--server))
        (uri (kesi--uri)))
    (kesi--start-run server "kesi.compact" (and uri (list :uri uri))
                     "compact the conversation")))

(defun kesi-eglot-session-command (command &optional args)
  "Run the session COMMAND (kesi.reset, kesi.cost, ...) and say what it answered.
ARGS, a plist, joins the buffer's folder (`:uri') as the command's arguments."
  (let ((server (kesi--server))
        (uri (kesi--uri)))
    (kesi--execute
     server command (append args (and uri (list :uri uri)))
     (lambda (result)
       (when (equal command "kesi.cost")
         (kesi-output-note-session-cost server result))
       ;; The server's own lines (the seed's /reset, /cost, /permissions, /revoke).
       (message "%s" (kesi-output-said result (format "%s done" command)))))))

(provide 'kesi-run)
;;; kesi-run.el ends here
