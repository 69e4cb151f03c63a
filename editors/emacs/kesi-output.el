;;; kesi-output.el --- The *kesi* buffer: what KeSi says and does, and what it costs  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Model text streams in as prose; tool calls, their results, notices and each run's bill
;; are lines of their own, each with a face.  The buffer is shown when a run starts but
;; never takes the focus; a window whose point is at the end follows the story, one where
;; the user moved up to read stays where it is.  The runs seen here (by id, with their
;; status and cost) live here too: the mode line and the commands read them.

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

(defun kesi--ensure-run (server run-id title)
  "Record RUN-ID of SERVER, with TITLE, and head it in the buffer.
Idempotent: a stream may come before the command's answer.  Return the run."
  (or (gethash run-id kesi--runs)
      (progn
        (puthash run-id (list :server server :title (or title "KeSi") :status "running" :cost 0)
                 kesi--runs)
        (puthash server run-id kesi--active)
        (when kesi-output-show (kesi-output-show))
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

(defun kesi-output-mode-line (server)
  "The mode-line text for SERVER."
  (let* ((run-id (gethash server kesi--active))
         (run (and run-id (gethash run-id kesi--runs))))
    (if run
        (format " KeSi● %s · %s" (if-let ((turn (plist-get run :turn))) (concat "turn " turn)
                                   "running")
                (kesi-output-format-cost (plist-get run :cost)))
      (format " KeSi %s" (kesi-output-format-cost (kesi--server-cost server))))))

(defun kesi-output-note-session-cost (server usage)
  "Remember the session cost in USAGE (a `kesi.cost' answer) for SERVER."
  (when (numberp (plist-get usage :costUsd))
    (puthash server (plist-get usage :costUsd) kesi--session-cost)))

;;;; The buffer

(defvar kesi--in-text nil "Whether the buffer ends in model text that further deltas continue.")
(defvar kesi--last-notice nil "The current run's last notice, so its end does not repeat it.")

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
    (setq kesi--in-text nil)))

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

(defun kesi--line (text &optional face)
  "Append TEXT as whole lines, with FACE; return a marker at their start."
  (let (start)
    (kesi--appending
      (unless (bolp) (insert "\n"))
      (setq start (point-marker))
      (insert (if face (propertize text 'face face) text) "\n"))
    (setq kesi--in-text nil)
    start))

(defun kesi--header (title)
  "Head a run with TITLE and the time; return a marker at the line."
  (setq kesi--last-notice nil)
  (kesi--line (format "── %s · %s ──" title (format-time-string "%H:%M:%S")) 'kesi-header))

(defun kesi--retitle (marker title)
  "Give the header line at MARKER the TITLE."
  (with-current-buffer (marker-buffer marker)
    (let ((inhibit-read-only t))
      (save-excursion
        (goto-char marker)
        (when (looking-at "── \\(.*\\) · \\([0-9:]+\\) ──$")
          (replace-match (propertize title 'face 'kesi-header) t t nil 1))))))

(defun kesi--text (text)
  "Model TEXT as it streams: it continues the paragraph; newlines start new lines."
  (unless (string-empty-p text)
    (kesi--appending
      (unless (or kesi--in-text (bolp)) (insert "\n"))
      (insert text))
    (setq kesi--in-text t)))

(defun kesi-output-describe-input (input)
  "A short, readable form of a tool's INPUT plist."
  (cond
   ((not (consp input)) "")
   (t (let ((shown (cl-loop for key in '(:command :file_path :path :pattern :glob)
                            for value = (plist-get input key)
                            when (stringp value)
                            return (if (and (eq key :pattern) (stringp (plist-get input :path))
                                            (not (string-empty-p (plist-get input :path))))
                                       (format "%s in %s" value (plist-get input :path))
                                     value))))
        (replace-regexp-in-string "\n" " ⏎ " (or shown (format "%S" input)))))))

(defun kesi--notice (text &optional once)
  "A notice TEXT; with ONCE, skipped when it repeats the run's last notice."
  (unless (and once (equal text kesi--last-notice))
    (setq kesi--last-notice text)
    (kesi--line (concat "! " text) 'kesi-notice)))

(defun kesi-output-stream (server params)
  "Show one `kesi/stream' notification PARAMS of SERVER."
  (let* ((run-id (plist-get params :runId))
         (tool (or (plist-get params :tool) "?")))
    (when (stringp run-id)
      (kesi--ensure-run server run-id nil)
      (pcase (plist-get params :kind)
        ("text" (kesi--text (or (plist-get params :text) "")))
        ("toolStart"
         (let ((detail (kesi-output-describe-input (plist-get params :input))))
           (kesi--line (concat "▸ " tool (if (string-empty-p detail) "" (concat " " detail)))
                       'kesi-tool)))
        ("toolEnd"
         (let* ((summary (plist-get params :summary))
                (text (replace-regexp-in-string
                       "\n" " ⏎ " (if (and (stringp summary) (not (string-empty-p summary)))
                                      summary tool))))
           (if (eq (plist-get params :isError) t)
               (kesi--line (concat "  ✗ " text) 'kesi-tool-error)
             (kesi--line (concat "  ✓ " text) 'kesi-tool-ok))))
        ("notice" (let ((text (format "%s" (or (plist-get params :text) ""))))
                    (if (member (plist-get params :notice) '("workspace" "sandbox"))
                        (kesi--line (concat "  " text) 'kesi-startup) ; Day 15's start-up lines
                      (kesi--notice text))))
        ("edit" (kesi--line (format "✎ %s %s" tool (or (plist-get params :path) ""))
                            'kesi-tool-ok))
        ("turn" (let ((turn (plist-get params :turn)) (most (plist-get params :maxTurns)))
                  (when (numberp turn)
                    (kesi--run-put run-id :turn (if (numberp most) (format "%d/%d" turn most)
                                                  (number-to-string turn))))))
        ("usage" (let ((run (plist-get params :run)) (session (plist-get params :session)))
                   (when (numberp (plist-get run :costUsd))
                     (kesi--run-put run-id :cost (plist-get run :costUsd)))
                   (when (numberp (plist-get session :costUsd))
                     (puthash server (plist-get session :costUsd) kesi--session-cost))))))))

(defun kesi-output-footer (params cost)
  "What the end of a run says (`kesi/runFinished' PARAMS), in the server's words.
Its status (`statusText', in the session's locale) and the seed's Day 18 bill
line (`bill', absent when the run made no request); an older server that sends
neither gets the status and COST."
  (let ((status (plist-get params :statusText))
        (bill (plist-get params :bill)))
    (cond ((and (stringp bill) (not (string-empty-p bill)))
           (format "%s · %s" (or status (plist-get params :status) "done") bill))
          ((stringp status) status)
          (t (format "%s · %s" (or (plist-get params :status) "done")
                     (kesi-output-format-cost cost))))))

(defun kesi-output-finish (server params)
  "The end of a run (`kesi/runFinished' PARAMS of SERVER): the bill, and one line."
  (let* ((run-id (plist-get params :runId))
         (status (or (plist-get params :status) "done"))
         (usage (plist-get params :usage))
         (text (plist-get params :text)))
    (when (stringp run-id)
      (kesi--ensure-run server run-id nil)
      (when (numberp (plist-get usage :costUsd))
        (kesi--run-put run-id :cost (plist-get usage :costUsd)))
      (when-let ((session (plist-get params :sessionUsage)))
        (kesi-output-note-session-cost server session))
      (kesi--run-put run-id :status status)
      (kesi--run-put run-id :finished (cl-incf kesi--finished-count))
      (when (equal (gethash server kesi--active) run-id)
        (remhash server kesi--active))
      (when (and (not (equal status "done")) (stringp text) (not (string-empty-p text)))
        (kesi--notice text t))             ; why it stopped (a done run's text was streamed)
      (let ((footer (kesi-output-footer params (plist-get (kesi-output-run run-id) :cost))))
        (kesi--line (concat "── " footer)
                    (pcase status ("done" 'kesi-done) ("failed" 'kesi-failed) (_ 'kesi-stopped)))
        (message "KeSi: %s%s" footer
                 (if (and (not (equal status "done")) (stringp text) (not (string-empty-p text)))
                     (concat " · " (car (split-string text "\n")))
                   ""))))))

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
