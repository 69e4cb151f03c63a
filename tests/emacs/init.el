;;; init.el --- The Emacs the tests drive: a user's init file, set up as the README says  -*- lexical-binding: t; -*-

;; Started as `emacs -nw -q -l init.el' in a terminal (tmux), so Debian's site files load
;; eglot from elpa-eglot exactly as for a user.  The tests talk to it through its server
;; socket (emacsclient) to read what a user would see, and type keys through the terminal.

(setq user-emacs-directory (file-name-as-directory (getenv "KESI_EMACS_HOME")))
;; What a normal start (without -q) does before the user's init: activate the installed
;; packages, so Debian's elpa-eglot is autoloaded (`M-x eglot').
(package-activate-all)
(setq inhibit-startup-screen t)
(setq ring-bell-function #'ignore)
(setq server-socket-dir (getenv "KESI_EMACS_SOCKET_DIR"))
(setq server-name "kesi")
(server-start)

(pcase (getenv "KESI_EMACS_SETUP")
  ("plain"
   ;; The README's lines for plain eglot, without the package.
   (with-eval-after-load 'eglot
     (add-to-list 'eglot-server-programs
                  '((python-mode python-ts-mode) . ("kesi-lsp")))
     (setq-default eglot-workspace-configuration
                   '(:kesi (:model "claude-haiku-4-5" :locale "en"))))
   (global-auto-revert-mode 1))
  (_
   ;; The README's lines for the package.
   (add-to-list 'load-path (getenv "KESI_EMACS_PACKAGE"))
   (require 'kesi)
   (when-let ((settings (getenv "KESI_EMACS_SETTINGS")))
     (setq kesi-settings (let ((json-object-type 'plist)) (json-read-from-string settings))))))

(defun kesi-test-dump (file value)
  "Write VALUE to FILE as JSON, for the test to read."
  (with-temp-file file
    (setq buffer-file-coding-system 'utf-8)
    (insert (json-encode value))))

(defun kesi-test-lines (buffer-or-name)
  "The lines of BUFFER-OR-NAME, a list of strings (nil when there is no such buffer)."
  (let ((buffer (get-buffer buffer-or-name)))
    (when buffer
      (with-current-buffer buffer
        (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n")))))

(defun kesi-test-file-buffer (file)
  "The buffer visiting FILE."
  (find-buffer-visiting file))

(defun kesi-test-faces (buffer-or-name)
  "Each non-empty line of BUFFER-OR-NAME and the face at its start, a JSON object."
  (with-current-buffer buffer-or-name
    (save-excursion
      (goto-char (point-min))
      (let ((out (make-hash-table :test #'equal)))
        (while (not (eobp))
          (let ((line (buffer-substring-no-properties (line-beginning-position)
                                                      (line-end-position))))
            (unless (string-empty-p line)
              (puthash line (format "%s" (get-text-property (point) 'face)) out)))
          (forward-line 1))
        out))))

;; Debian's Emacs 28 compiles elpa packages natively in the background and pops up their
;; compiler warnings; they are about eglot's dependencies, not about anything tested here.
(setq native-comp-async-report-warnings-errors 'silent)

(defun kesi-test-add-diagnostic (file line message)
  "Show MESSAGE as an error on LINE of FILE, as a test runner's flymake backend would."
  (with-current-buffer (find-buffer-visiting file)
    (let ((diagnostic (save-excursion
                        (goto-char (point-min))
                        (forward-line (1- line))
                        (back-to-indentation)
                        (list (point) (line-end-position)))))
      (setq-local kesi-test--diagnostic (append diagnostic (list message)))
      (add-hook 'flymake-diagnostic-functions #'kesi-test--backend nil t)
      (flymake-mode 1)
      (flymake-start))))

(defvar-local kesi-test--diagnostic nil)
(defun kesi-test--backend (report &rest _)
  "A flymake backend that reports `kesi-test--diagnostic'."
  (pcase-let ((`(,beg ,end ,message) kesi-test--diagnostic))
    (funcall report (list (flymake-make-diagnostic (current-buffer) beg end :error message)))))

(defun kesi-test-runs ()
  "The runs that ended, oldest first, as JSON objects {id, title, status, cost, limit}."
  (vconcat
   (mapcar (lambda (run)
             (let ((h (make-hash-table :test #'equal)))
               (puthash "id" (plist-get run :id) h)
               (puthash "title" (plist-get run :title) h)
               (puthash "status" (plist-get run :status) h)
               (puthash "cost" (plist-get run :cost) h)
               (puthash "limit" (plist-get run :limit) h)
               h))
           (and (fboundp 'kesi-output-finished-runs) (kesi-output-finished-runs)))))

(defun kesi-test-review ()
  "The open review as {name, lines, header}, or nil."
  (let ((buffer (cl-find-if (lambda (b) (buffer-local-value 'kesi-review--respond b))
                            (buffer-list))))
    (when buffer
      (let ((h (make-hash-table :test #'equal)))
        (puthash "name" (buffer-name buffer) h)
        (puthash "lines" (kesi-test-lines buffer) h)
        (puthash "selected" (eq (window-buffer (selected-window)) buffer) h)
        (puthash "mode" (symbol-name (buffer-local-value 'major-mode buffer)) h)
        h))))

(defvar kesi-test-saves nil "The buffers saved, newest first, as after-save-hook saw them.")
(add-hook 'after-save-hook (lambda () (push (buffer-name) kesi-test-saves)))

(defun fakelint (report &rest _)
  "A linter as a flymake backend: a warning on each `a + b', source `fakelint'."
  (let (found)
    (save-excursion
      (goto-char (point-min))
      (while (search-forward "a + b" nil t)
        (push (flymake-make-diagnostic (current-buffer) (match-beginning 0) (match-end 0)
                                       :warning "consider sum((a, b))")
              found)))
    (funcall report found)))

(defun kesi-test-add-linter (file)
  "Run `fakelint' in the buffer visiting FILE, as a user's linter would (flymake)."
  (with-current-buffer (find-buffer-visiting file)
    (add-hook 'flymake-diagnostic-functions #'fakelint nil t)
    (flymake-mode 1)
    (flymake-start)))
