;;; kesi-output.el --- The *kesi* buffer: what KeSi says and does, and what it costs  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Model text streams in as prose; tool calls, their results, notices and each run's bill
;; are lines of their own, each with a face; a search sub-agent's lines are indented under
;; the call that started it.  The buffer is shown when a run starts but never takes the
;; focus; a window whose point is at the end follows the story, one where the user moved up
;; to read stays where it is.  The runs seen here (by id, with their status and cost) live
;; here too: the mode line and the commands read them.  What each `kesi/stream' event
;; writes here is decided in kesi-stream.el.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'kesi)

(defface kesi-header '((t :inherit font-lock-keyword-face :weight bold))
  "A run's first line in `*kesi*'."
  :group (quote kesi))
(defface kesi-tool '((t :inherit font-lock-function-name-face))
  "A tool call in `*kesi*'."
  :group (quote kesi))
(defface kesi-tool-ok '((t :inherit success))
  "A tool that succeeded, and an applied edit, in `*kesi*'."
  :group (quote kesi))
(defface kesi-tool-error '((t :inherit error))
  "A tool that failed or was refused, in `*kesi*'."
  :group (quote kesi))
(defface kesi-notice '((t :inherit warning))
  "A notice (limits, retries, the sandbox) in `*kesi*'."
  :group (quote kesi))
(defface kesi-info '((t :inherit font-lock-doc-face))
  "A notice that only informs (a resumed conversation, a summary of it) in `*kesi*'."
  :group (quote kesi))
(defface kesi-cost '((t :inherit shadow))
  "A line of the bill of its own (a search, a summary of the conversation) in `*kesi*'."
  :group (quote kesi))
(defface kesi-startup '((t :inherit shadow))
  "The working directory and sandbox lines a project's first run starts with."
  :group (quote kesi))
(defface kesi-done '((t :inherit success :weight bold))
  "The bill of a run that finished."
  :group (quote kesi))
(defface kesi-stopped '((t :inherit warning :weight bold))
  "The bill of a run that was cancelled or hit a limit."
  :group (quote kesi))
(defface kesi-failed '((t :inherit error :weight bold))
  "The bill of a run that failed."
  :group (quote kesi))

(defconst kesi-output-buffer-name "*kesi*")

;;;; Runs

(defvar kesi--runs (make-hash-table :test #'equal)
  "Run id -> plist (:server :title :status :cost :turn :header).")
(defvar kesi--active (make-hash-table :test #'eq)
  "Server -> the id of its running run.")
(defvar kesi--session-cost (make-hash-table :test #'eq)
  "Server -> the session's cost in USD as the server last reported it.")
(defvar kesi--finished-count 0 "How many runs ended in this Emacs.")

(defun kesi-output-run (run-id)
  "The plist of RUN-ID, or nil."
  (gethash run-id kesi--runs))

(defun kesi--run-put (run-id key value)
  "Set KEY of RUN-ID's plist to VALUE."
  (puthash run-id (plist-put (gethash run-id kesi--runs) key value) kesi--runs))

(defun kesi-output-active-run (server)
  "The id of SERVER's running run, or nil."
  (gethash server kesi--active))

(defun kesi-output-finished-runs ()
  "The runs that ended, oldest first, as plists with their :id."
  (let (runs)
    (maphash (lambda (id run) (when (plist-get run :finished)
                                (push (plist-put (copy-sequence run) :id id) runs)))
             kesi--runs)
    (sort runs (lambda (a b) (< (plist-get a :finished) (plist-get b :finished))))))

(defun kesi-output-last-finished (server)
  "The plist of SERVER's run that ended last, or nil."
  (let (last)
    (maphash (lambda (_ run)
               (when (and (eq (plist-get run :server) server) (plist-get run :finished)
                          (or (null last)
                              (> (plist-get run :finished) (plist-get last :finished))))
                 (setq last run)))
             kesi--runs)
    last))

(defun kesi--ensure-run (server run-id title)
  "Record RUN-ID of SERVER, with TITLE, and head it in the buffer.
Idempotent: a stream may come before the command's answer.  Return the run."
  (or (gethash run-id kesi--runs)
      (progn
        (puthash run-id (list :server server :title (or title "KeSi") :status "running" :cost 0)
                 kesi--runs)
        (puthash server run-id kesi--active)
        (when kesi-output-show (kesi-output-show))
        (kesi-output-set-head nil)         ; the last run's plan is in its story
        (kesi--run-put run-id :header (kesi--header (or title "KeSi")))
        (gethash run-id kesi--runs))))

(defun kesi-output-begin (server run-id title)
  "A run started with `kesi-fix-this' or `kesi-ask': show its TITLE."
  (let ((run (gethash run-id kesi--runs)))
    (if (not run)
        (kesi--ensure-run server run-id title)
      ;; Its stream came first and headed it untitled.
      (kesi--run-put run-id :title title)
      (when-let ((marker (plist-get run :header)))
        (kesi--retitle marker title)))))

(defun kesi-output-format-cost (usd)
  "USD as \"$0.0123\"."
  (format "$%.4f" (or usd 0)))

(defun kesi--server-cost (server)
  "What SERVER's session has cost.
Its own total when it said, else the sum of its runs."
  (let ((sum 0))
    (maphash (lambda (_ run) (when (eq (plist-get run :server) server)
                               (setq sum (+ sum (or (plist-get run :cost) 0)))))
             kesi--runs)
    (max sum (or (gethash server kesi--session-cost) 0))))

(defun kesi-output-note-session-cost (server usage)
  "Remember the session cost in USAGE (a `kesi.cost' answer) for SERVER."
  (when (numberp (plist-get usage :costUsd))
    (puthash server (plist-get usage :costUsd) kesi--session-cost)))

(defvar eglot-workspace-configuration)

(defun kesi-output-locale ()
  "The session's locale as this Emacs set it: \"zh-TW\" or \"en\".
From `kesi-settings', else the `kesi' section of
`eglot-workspace-configuration'."
  (let ((workspace (and (boundp 'eglot-workspace-configuration)
                        (listp (default-value 'eglot-workspace-configuration))
                        (plist-get (default-value 'eglot-workspace-configuration) :kesi))))
    (or (plist-get kesi-settings :locale)
        (and (listp workspace) (plist-get workspace :locale))
        "en")))

;;;; The buffer

(defvar kesi--in-text nil "Whether the buffer ends in model text that further deltas continue.")
(defvar kesi--text-indent "" "The indent of that text: a sub-agent's is indented.")
(defvar kesi--head-end nil
  "Where the block at the head of `*kesi*' ends (a marker), else nil.
The running run's plan stands there, updated in place.")

(defvar kesi-output-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "q") #'quit-window)
    map)
  "Keys of the `*kesi*' buffer.")

(define-derived-mode kesi-output-mode special-mode "KeSi"
  "The story of KeSi's runs: model text, tools, notices and the bill."
  (setq-local truncate-lines nil)
  (setq-local word-wrap t)
  (buffer-disable-undo))

(defun kesi-output-buffer ()
  "The `*kesi*' buffer, created when needed."
  (or (get-buffer kesi-output-buffer-name)
      (with-current-buffer (get-buffer-create kesi-output-buffer-name)
        (kesi-output-mode)
        (setq kesi--in-text nil)
        (current-buffer))))

(defun kesi-output-show ()
  "Show `*kesi*' at the bottom of the frame without selecting it.
Return its window."
  (let ((buffer (kesi-output-buffer)))
    (or (get-buffer-window buffer)
        (let ((window (display-buffer
                       buffer
                       `((display-buffer-reuse-window display-buffer-at-bottom)
                         (window-height . ,kesi-output-height)
                         (inhibit-same-window . t)))))
          (when window
            (set-window-point window (with-current-buffer buffer (point-max)))
            (set-window-dedicated-p window t))
          window))))

(defun kesi-output-toggle ()
  "Hide `*kesi*' when it is shown, else show it and select it."
  (let ((window (get-buffer-window (kesi-output-buffer))))
    (if window
        (quit-window nil window)
      (select-window (kesi-output-show)))))

(defun kesi-output-clear ()
  "Empty `*kesi*'."
  (with-current-buffer (kesi-output-buffer)
    (let ((inhibit-read-only t)) (erase-buffer))
    (setq kesi--in-text nil
          kesi--head-end nil)))

(defmacro kesi--appending (&rest body)
  "Run BODY at the end of `*kesi*', writable; windows at the end follow it."
  (declare (indent 0))
  `(with-current-buffer (kesi-output-buffer)
     (let* ((inhibit-read-only t)
            (following (cl-remove-if-not
                        (lambda (w) (>= (window-point w) (point-max)))
                        (get-buffer-window-list (current-buffer) nil t))))
       (save-excursion
         (goto-char (point-max))
         ,@body)
       (set-buffer-modified-p nil)
       (dolist (w following) (set-window-point w (point-max))))))

(defun kesi--line (text &optional face indent)
  "Append TEXT as whole lines, with FACE, each line after INDENT.
Return a marker at their start."
  (let ((indent (or indent "")) start)
    (kesi--appending
      (unless (bolp) (insert "\n"))
      (setq start (point-marker))
      (dolist (line (split-string text "\n"))
        (let ((whole (concat indent line)))
          (insert (if face (propertize whole 'face face) whole) "\n"))))
    (setq kesi--in-text nil)
    start))

(defun kesi-output-set-head (lines)
  "Put LINES (strings, maybe none) at the head of `*kesi*', in place of the old."
  (with-current-buffer (kesi-output-buffer)
    (let ((inhibit-read-only t))
      (save-excursion
        (when (and (markerp kesi--head-end) (eq (marker-buffer kesi--head-end) (current-buffer)))
          (delete-region (point-min) kesi--head-end))
        (goto-char (point-min))
        (setq kesi--head-end nil)
        (when lines
          (dolist (line lines) (insert line "\n"))
          (insert "\n")
          (setq kesi--head-end (point-marker))))
      (set-buffer-modified-p nil))))

(defun kesi--header (title)
  "Head a run with TITLE and the time; return a marker at the line."
  (kesi--line (format "── %s · %s ──" title (format-time-string "%H:%M:%S")) 'kesi-header))

(defun kesi--retitle (marker title)
  "Give the header line at MARKER the TITLE."
  (with-current-buffer (marker-buffer marker)
    (let ((inhibit-read-only t))
      (save-excursion
        (goto-char marker)
        (when (looking-at "── \\(.*\\) · \\([0-9:]+\\) ──$")
          (replace-match (propertize title 'face 'kesi-header) t t nil 1))))))

(defun kesi--text (text &optional indent)
  "Model TEXT as it streams: it continues the paragraph; newlines start new lines.
With INDENT (a sub-agent's text) each line it starts is indented, and it never
continues a line of text at another indent."
  (let ((indent (or indent "")))
    (unless (string-empty-p text)
      (unless (equal indent kesi--text-indent) (setq kesi--in-text nil))
      (kesi--appending
        (unless (or kesi--in-text (bolp)) (insert "\n"))
        (let ((first t))
          (dolist (piece (split-string text "\n"))
            (unless first (insert "\n"))
            (setq first nil)
            (unless (string-empty-p piece)
              (when (bolp) (insert indent))
              (insert piece)))))
      (setq kesi--in-text t
            kesi--text-indent indent))))

(defun kesi-output-forget (server)
  "Forget the runs of SERVER, which stopped."
  (maphash (lambda (id run) (when (eq (plist-get run :server) server) (remhash id kesi--runs)))
           kesi--runs)
  (remhash server kesi--active)
  (remhash server kesi--session-cost))

;;;; What the session commands answer

(defun kesi-output-said (result fallback)
  "What a session command's RESULT says, in the server's words.
Its `lines' or its `message': the seed's words in the session's locale.
FALLBACK is for an older server that sends neither."
  (let ((lines (append (plist-get result :lines) nil))
        (said (plist-get result :message)))
    (cond (lines (string-join (mapcar (lambda (line) (format "%s" line)) lines) "\n"))
          ((stringp said) said)
          (t (concat "KeSi: " fallback)))))

(provide 'kesi-output)
;;; kesi-output.el ends here
