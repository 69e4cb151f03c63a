;;; kesi-eglot.el --- KeSi's server class and its LSP methods, over eglot  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `kesi-server' is the eglot server class for kesi-lsp.  Specialising eglot's generic
;; functions on it keeps every change to KeSi's own connection: other servers see eglot
;; exactly as it was.
;;
;; - It announces `experimental.kesi' (`kesi-eglot-features').
;; - `kesi/stream', `kesi/plan' and `kesi/runFinished' go to the `*kesi*' buffer, the mode
;;   line and the echo area; `kesi/diagnostics' is answered with flymake's diagnostics.
;; - `kesi/reviewEdit', `kesi/saveDocuments' and `window/showMessageRequest' are answered
;;   later, from the command loop, never inside the process filter (`kesi--receive'): a
;;   review may stay open while the user reads code, cancels the run or asks for the cost,
;;   and no other message of the server waits behind it.
;; - `workspace/applyEdit' is applied without eglot's own confirmation: KeSi's review was
;;   the confirmation, and eglot's y/n shows only the path (issue 17 item 1).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eglot)
(require 'jsonrpc)
(require 'kesi)
(require 'kesi-output)
(require 'kesi-stream)
(require 'kesi-plan)
(require 'kesi-diagnostics)
(require 'kesi-review)
(require 'kesi-prompt)

(defclass kesi-server (eglot-lsp-server) ()
  :documentation "An eglot connection to kesi-lsp, the KeSi agent.")

(defvar kesi-eglot-features
  '(:stream t :reviewEdit t :saveDocuments t :plan t :diagnostics t)
  "What this client announces in `capabilities.experimental.kesi' (design §2.2).")

(defun kesi--contact (&optional _interactive)
  "The eglot contact for kesi-lsp: the class and `kesi-program'."
  (cons 'kesi-server kesi-program))

;;;; Starting

(defun kesi--register-modes (modes)
  "Make `M-x eglot' start KeSi for MODES (see `kesi-modes').
KeSi's entries come first, so they win over other servers for MODES."
  (setq eglot-server-programs
        (cl-remove #'kesi--contact eglot-server-programs :key #'cdr))
  (dolist (entry (reverse modes))
    (push (cons entry #'kesi--contact) eglot-server-programs)))

(defun kesi--modes-for (mode)
  "The major modes one KeSi server manages with MODE.
MODE's group in `kesi-modes', else MODE alone."
  (or (cl-find-if (lambda (entry) (and (consp entry) (memq mode entry))) kesi-modes)
      (list mode)))

(defun kesi--project ()
  "The current project as eglot finds it.
In a folder without version control: a transient project there."
  (or (project-current) (cons 'transient default-directory)))

(defun kesi-eglot-start ()
  "Start kesi-lsp through eglot for this buffer's project and major mode."
  (unless buffer-file-name
    (user-error "KeSi: start it from a file of your project"))
  (let ((current (eglot-current-server)))
    (cond
     ((and current (cl-typep current 'kesi-server) (jsonrpc-running-p current))
      (message "KeSi is already running for %s" (eglot-project-nickname current)))
     (t
      (when (and current (jsonrpc-running-p current))
        (unless (y-or-n-p
                 (format "Eglot runs one server per buffer: replace %s with KeSi for %s buffers \
in this project? "
                         (jsonrpc-name current) major-mode))
          (user-error "KeSi not started; %s still manages these buffers" (jsonrpc-name current)))
        (eglot-shutdown current))
      (eglot (kesi--modes-for major-mode) (kesi--project) 'kesi-server (cdr (kesi--contact))
             (string-remove-suffix "-mode" (symbol-name major-mode)))))))

(defun kesi--server (&optional quiet)
  "The KeSi server of the current buffer, else the only one running.
Unless QUIET, say what to do when there is none."
  (let ((current (eglot-current-server)))
    (or (and current (cl-typep current 'kesi-server) (jsonrpc-running-p current) current)
        (let ((all (cl-remove-if-not
                    (lambda (s) (and (cl-typep s 'kesi-server) (jsonrpc-running-p s)))
                    (kesi--all-servers))))
          (and (= (length all) 1) (car all)))
        (unless quiet
          (user-error "KeSi: no kesi-lsp server for this buffer; M-x kesi-start in a file \
of your project")))))

(defvar eglot--servers-by-project)
(defun kesi--all-servers ()
  "Every eglot server of this Emacs."
  (let (all)
    (maphash (lambda (_project servers) (setq all (append servers all)))
             eglot--servers-by-project)
    all))

;;;; What the client announces and sends at start

(cl-defmethod eglot-client-capabilities ((_server kesi-server))
  "Eglot's capabilities plus `experimental.kesi'."
  (let ((caps (copy-sequence (cl-call-next-method))))
    (plist-put caps :experimental (list :kesi kesi-eglot-features))))

(cl-defmethod eglot-initialization-options ((_server kesi-server))
  "`kesi-settings' as initializationOptions."
  (or kesi-settings (make-hash-table)))

;;;; Edits: KeSi's review was the confirmation

(defvar eglot-confirm-server-edits)        ; eglot 1.16 and newer
(defvar eglot-confirm-server-initiated-edits) ; eglot 1.9 to 1.15

(defun kesi--uri-to-path (uri)
  "The file name of URI, as eglot reads it."
  (if (fboundp 'eglot-uri-to-path) (eglot-uri-to-path uri) (eglot--uri-to-path uri)))

(defun kesi--path-to-uri (file)
  "The URI of FILE, exactly as eglot sends it in didOpen.
The server finds the open document by it."
  (if (fboundp 'eglot-path-to-uri) (eglot-path-to-uri file) (eglot--path-to-uri file)))

(cl-defmethod eglot-handle-request :around
  ((_server kesi-server) (_method (eql workspace/applyEdit)) &key edit &allow-other-keys)
  "Apply KeSi's reviewed edit without eglot's second question.
Eglot also asks when an edited file is not visited: visit them first."
  (let ((buffers (cl-loop for change across (or (plist-get edit :documentChanges) [])
                          for uri = (plist-get (plist-get change :textDocument) :uri)
                          when uri collect (find-file-noselect (kesi--uri-to-path uri)))))
    (prog1 (let ((eglot-confirm-server-initiated-edits nil)
                 (eglot-confirm-server-edits nil))
             (cl-call-next-method))
      ;; Eglot reports changes from an idle timer, which does not run while Emacs has
      ;; been idle since before the edit (the user answered and then did nothing): the
      ;; server would wait in vain for the didChange that shows the edit landed.
      (dolist (buffer buffers) (kesi--send-changes buffer)))))

(defun kesi--send-changes (buffer)
  "Send BUFFER's pending changes to its server now, not after eglot's idle delay."
  (when (and (buffer-live-p buffer) (fboundp 'eglot--signal-textDocument/didChange))
    (with-current-buffer buffer
      (when (bound-and-true-p eglot--managed-mode)
        (ignore-errors (eglot--signal-textDocument/didChange))))))

;;;; Requests answered later, outside the process filter

(defconst kesi--later-methods
  '(("kesi/reviewEdit" . kesi-review-request)
    ("kesi/saveDocuments" . kesi--save-documents)
    ("window/showMessageRequest" . kesi-prompt-request))
  "Server requests that KeSi answers from the command loop: method, handler.
A handler gets the server, the params and a function that sends the answer.")

(defun kesi--receive (receive connection message &rest more)
  "Around `jsonrpc-connection-receive': take the requests that wait for the user.
RECEIVE is the original, CONNECTION and MESSAGE (and MORE) its arguments.
Handling them inside the process filter, as eglot does, would freeze the
connection until the user answers, and jsonrpc before 1.0.17 can lose
messages that arrive meanwhile."
  (let* ((method (plist-get message :method))
         (id (plist-get message :id))
         (handler (and id (stringp method) (cl-typep connection 'kesi-server)
                       (cdr (assoc method kesi--later-methods)))))
    (if (not handler)
        (apply receive connection message more)
      (when (fboundp 'jsonrpc--log-event)  ; jsonrpc 1.0.14: show it in the events buffer
        (ignore-errors (jsonrpc--log-event connection message 'server)))
      (run-at-time 0 nil #'kesi--answer-later handler connection id (plist-get message :params)))))

(defun kesi--answer-later (handler connection id params)
  "Call HANDLER for request ID of CONNECTION; it answers once, through a callback."
  (let ((answered nil))
    (cl-flet ((respond (result)
                (unless answered
                  (setq answered t)
                  (when (jsonrpc-running-p connection)
                    (jsonrpc-connection-send connection :id id :result result)))))
      (condition-case err
          (funcall handler connection params #'respond)
        ((debug error)
         (message "KeSi: %s" (error-message-string err))
         (unless answered
           (setq answered t)
           (jsonrpc-connection-send connection :id id
                                    :error (list :code -32603
                                                 :message (error-message-string err)))))))))

(advice-add 'jsonrpc-connection-receive :around #'kesi--receive)

(defun kesi-eglot-unload-function ()
  "Remove KeSi's advice when the feature is unloaded."
  (advice-remove 'jsonrpc-connection-receive #'kesi--receive)
  nil)

;;;; kesi/saveDocuments: Emacs saves, as a normal save

(defun kesi--save-one (uri)
  "Save the buffer visiting URI; nil when saved, else why not."
  (let* ((file (kesi--uri-to-path uri))
         (buffer (find-buffer-visiting file)))
    (cond
     ((not buffer) "no buffer visits this file")
     ((not (verify-visited-file-modtime buffer))
      ;; Never answer "changed on disk, save anyway?" for the user.
      "the file changed on disk since Emacs read it")
     (t (condition-case err
            (with-current-buffer buffer
              (save-buffer)
              (and (buffer-modified-p) "the save did not complete"))
          (error (error-message-string err)))))))

(defun kesi--save-documents (_server params respond)
  "Answer `kesi/saveDocuments' PARAMS through RESPOND: save those buffers.
The save is a normal one (`before-save-hook', `after-save-hook'): the
server notices a reformat and tells the model."
  (let (saved failed)
    (dolist (uri (append (plist-get params :uris) nil))
      (let ((problem (kesi--save-one uri)))
        (if problem
            (push (list :uri uri :message problem) failed)
          (push uri saved))))
    (when failed
      (message "KeSi: could not save %s"
               (mapconcat (lambda (f) (format "%s (%s)"
                                              (file-name-nondirectory
                                               (kesi--uri-to-path (plist-get f :uri)))
                                              (plist-get f :message)))
                          failed ", ")))
    (funcall respond (list :saved (vconcat (nreverse saved)) :failed (vconcat (nreverse failed))))))

;;;; kesi/diagnostics: what flymake reports about those files

(cl-defmethod eglot-handle-request
  ((_server kesi-server) (_method (eql kesi/diagnostics)) &key uris &allow-other-keys)
  "Answer with flymake's diagnostics of URIS, from every backend (design §2.10).
At once, inside the process filter: nothing here waits for the user."
  (kesi-diagnostics-answer uris))

;;;; Notifications: the run's story

(cl-defmethod eglot-handle-notification
  ((server kesi-server) (_method (eql kesi/stream)) &rest params)
  "A piece of a run's story: text, a tool, a notice, the bill so far."
  (kesi-stream-event server params)
  (force-mode-line-update t))

(cl-defmethod eglot-handle-notification
  ((server kesi-server) (_method (eql kesi/plan)) &rest params)
  "The run's plan, the whole list each time: the head of `*kesi*', the mode line."
  (kesi-stream-plan server params)
  (force-mode-line-update t))

(cl-defmethod eglot-handle-notification
  ((server kesi-server) (_method (eql kesi/runFinished)) &rest params)
  "The end of a run: its status and cost, here and in the echo area."
  (let ((run-id (plist-get params :runId)))
    ;; A review still open belongs to a run that stopped: it is a reject now.
    (run-at-time 0 nil #'kesi-review-close-run run-id))
  (kesi-stream-finish server params)
  (force-mode-line-update t))

;;;; Commands sent to the server

(defun kesi--execute (server command argument then)
  "Run COMMAND (a string) on SERVER with its one object ARGUMENT.
THEN gets the result.  Asynchronous on purpose: jsonrpc 1.0.14 (Emacs 28)
ends a synchronous request by throwing out of the process filter, and the
messages that came in the same read (the end of a cancelled run) would wait
there until the server next said something."
  (when buffer-file-name (kesi--send-changes (current-buffer))) ; the server reads the text
  (jsonrpc-async-request
   server :workspace/executeCommand
   (list :command command :arguments (vector (or argument (make-hash-table))))
   :success-fn (lambda (result) (funcall then result))
   :error-fn (lambda (error)
               (message "KeSi: %s" (or (plist-get error :message) error)))
   :timeout-fn (lambda () (message "KeSi: the server did not answer %s" command))))

(defun kesi--uri ()
  "The file:// URI of the current buffer's file, or nil."
  (when buffer-file-name
    (kesi--path-to-uri buffer-file-name)))

(defun kesi--start-run (server command argument title)
  "Start a run with COMMAND and ARGUMENT on SERVER; TITLE heads it in `*kesi*'."
  (kesi--execute server command argument
                 (lambda (result)
                   (let ((run-id (plist-get result :runId)))
                     (if (stringp run-id)
                         (kesi-output-begin server run-id title)
                       (message "KeSi: the server did not start a run"))))))

;;;; The mode line: KeSi's state and cost in its buffers

(defun kesi--mode-line-text (server)
  "The mode-line text for SERVER.
While a run works: the plan's step in progress (before the run has a plan, the
server's words for its turn), a search's own turn in the server's words and the
cost so far; after: the verdict on the last run's changes and the session's
cost."
  (let* ((run-id (kesi-output-active-run server))
         (run (and run-id (kesi-output-run run-id))))
    (if run
        (concat
         " KeSi● "
         (string-join
          (delq nil (list (when-let ((step (or (kesi-plan-step (plist-get run :plan))
                                               (plist-get run :turn))))
                            (truncate-string-to-width step 48 nil nil "…"))
                          (plist-get run :nested-turn)
                          (kesi-output-format-cost (plist-get run :cost))))
          " · "))
      (let* ((verified (plist-get (kesi-output-last-finished server) :verified))
             (verdict (kesi-plan-verdict verified)))
        (concat " KeSi "
                (if verdict (format "%s %s · " (kesi-plan-verdict-mark verified) verdict) "")
                (kesi-output-format-cost (kesi--server-cost server)))))))

(defun kesi-eglot-mode-line ()
  "\"KeSi● step 2 of 3: Fix · $0.0012\" while a run works, \"KeSi $0.0345\" after.
Nil outside KeSi's buffers."
  (when-let ((server (and (bound-and-true-p eglot--managed-mode) (kesi--server t))))
    (when (eq server (eglot-current-server))
      (kesi--mode-line-text server))))

(defconst kesi--mode-line-entry '(:eval (kesi-eglot-mode-line))
  "The entry of `mode-line-misc-info' that shows KeSi's state.
A list, not a symbol: a symbol first in that list would make it a conditional.")

(unless (member kesi--mode-line-entry mode-line-misc-info)
  (push kesi--mode-line-entry mode-line-misc-info))

(kesi--register-modes kesi-modes)

(provide 'kesi-eglot)
;;; kesi-eglot.el ends here
