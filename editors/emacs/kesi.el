;;; kesi.el --- KeSi, a small and honest coding agent, through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.2") (eglot "1.9"))
;; Keywords: tools, languages, convenience
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The agent lives in the `kesi-lsp' language server; this package is the thin Emacs side of
;; it, over eglot, like the Neovim plugin in editors/nvim:
;;
;; - `kesi-start' starts kesi-lsp for the current project (eglot gives each buffer one
;;   server, so KeSi takes over this mode's buffers in this project, after asking);
;; - the run's story streams into the `*kesi*' buffer (`kesi/stream'), shown without taking
;;   the focus; every run ends with one line in the echo area (`kesi/runFinished');
;; - each edit waits in a diff buffer (`kesi/reviewEdit'): a accept, A accept for this
;;   session, r or q reject; killing the buffer rejects;
;; - permission prompts answer Deny on a bare RET, whatever order the server lists them in;
;; - accepted edits are saved by Emacs itself (`kesi/saveDocuments'), so the buffer is not
;;   left modified and no "changed on disk" question ever asks for a clobber;
;; - commands: `kesi-fix-this', `kesi-ask', `kesi-cancel', `kesi-compact', `kesi-reset',
;;   `kesi-cost', `kesi-permissions', `kesi-mcp', `kesi-mcp-login', `kesi-mcp-logout',
;;   `kesi-audit', `kesi-revoke', `kesi-output';
;;   for KeSi's changes (design §2.9) `kesi-changes', `kesi-keep', `kesi-undo', `kesi-undo-run';
;;   `M-x customize-group RET kesi'.
;;
;; On an Emacs or eglot too old for it, loading this file only says so, in one sentence.

;;; Code:

(require 'cl-lib)
(require 'lisp-mnt)

(defgroup kesi nil
  "KeSi, a coding agent inside Emacs, through eglot and the kesi-lsp server."
  :group 'tools
  :prefix "kesi-")

(defcustom kesi-program '("kesi-lsp")
  "The command that starts the KeSi language server, a program and its arguments.
Use an absolute path when kesi-lsp is not on `exec-path', for example
\(\"/path/to/kesi-lsp/.venv/bin/kesi-lsp\")."
  :type '(repeat string))

(defcustom kesi-settings nil
  "KeSi settings sent to the server at start, as a plist.
For example (:model \"claude-haiku-4-5\" :maxTurns 20 :locale \"en\").
The keys are the server's settings (model, maxTokens, maxTurns,
maxToolFailures, commandTimeout, sandbox, approvals, promptCaching,
contextTrimming, contextBudget, locale, baseUrl); unset ones keep the
server's defaults.  They travel as initializationOptions, which a
project's .dir-locals.el cannot change."
  :type 'plist)

(defcustom kesi-modes nil
  "Major modes for which `M-x eglot' and `eglot-ensure' start KeSi.
KeSi then takes the place of your usual server for them.  Each element
is a major mode or a list of modes that share one server, as in
`eglot-server-programs'.  nil: KeSi starts only with `kesi-start'."
  :type '(repeat (choice symbol (repeat symbol)))
  :set (lambda (symbol value)
         (set-default symbol value)
         (when (fboundp 'kesi--register-modes)
           (kesi--register-modes value))))

(defcustom kesi-output-show t
  "Whether a run shows the `*kesi*' buffer when it starts.
It never takes the focus."
  :type 'boolean)

(defcustom kesi-output-height 12
  "Height in lines of the window that shows the `*kesi*' buffer."
  :type 'integer)

(defcustom kesi-review-style 'diff
  "How an edit waits for review.
`diff': a `diff-mode' buffer; `ediff': that buffer and ediff."
  :type '(choice (const :tag "Unified diff buffer" diff)
                 (const :tag "Unified diff buffer and ediff" ediff)))

;;;; What KeSi needs (issue 20: an old editor gets one clear sentence)

(defconst kesi-required-emacs "28.2" "The oldest Emacs KeSi works with.")
(defconst kesi-required-eglot "1.9" "The oldest eglot KeSi works with.")

(defun kesi--eglot-version ()
  "The version of the eglot that `require' would load, or nil if none."
  (let ((file (locate-library "eglot.el" t)))
    (cond (file (ignore-errors (lm-version file)))
          ((locate-library "eglot") "an unknown version"))))

(defun kesi-problem ()
  "Why KeSi cannot work here, one sentence, or nil when it can."
  (let ((eglot (kesi--eglot-version)))
    (cond
     ((version< emacs-version kesi-required-emacs)
      (format "KeSi needs Emacs %s or newer with eglot %s or newer; this is Emacs %s: \
install a newer Emacs (Debian 12: apt install emacs-nox elpa-eglot)."
              kesi-required-emacs kesi-required-eglot emacs-version))
     ((null eglot)
      (format "KeSi needs eglot %s or newer, and no eglot is installed: install it with \
M-x package-install RET eglot RET (Debian 12: apt install elpa-eglot)."
              kesi-required-eglot))
     ((and (not (equal eglot "an unknown version"))
           (version< eglot kesi-required-eglot))
      (format "KeSi needs eglot %s or newer; eglot %s is installed: update it with \
M-x package-install RET eglot RET (Debian 12: apt install elpa-eglot)."
              kesi-required-eglot eglot)))))

(defvar kesi--problem (kesi-problem)
  "Why KeSi cannot work in this Emacs (a sentence), or nil.")

(defun kesi--require ()
  "Load the eglot side of KeSi, or say in one sentence why it cannot work here."
  (if kesi--problem
      (user-error "%s" kesi--problem)
    (require 'kesi-run)))

(defmacro kesi--defcommand (name args doc interactive &rest body)
  "Define command NAME that first makes sure KeSi can work here, then runs BODY."
  (declare (indent 3) (doc-string 3))
  `(defun ,name ,args
     ,doc
     (interactive (progn (kesi--require) ,interactive))
     (kesi--require)
     ,@body))

;;;; Commands

(declare-function kesi-eglot-start "kesi-eglot")
(declare-function kesi-eglot-fix "kesi-run")
(declare-function kesi-eglot-ask "kesi-run")
(declare-function kesi-eglot-cancel "kesi-run")
(declare-function kesi-eglot-session-command "kesi-run")
(declare-function kesi-eglot-compact "kesi-run")
(declare-function kesi-eglot-changes "kesi-changes")
(declare-function kesi-eglot-keep "kesi-changes")
(declare-function kesi-eglot-undo "kesi-changes")
(declare-function kesi-eglot-undo-run "kesi-changes")
(declare-function kesi-eglot-tasks "kesi-tasks")
(declare-function kesi-eglot-task-stop "kesi-tasks")
(declare-function kesi-output-toggle "kesi-output")
(declare-function kesi-output-clear "kesi-output")
(declare-function kesi-eglot-mode-line "kesi-eglot")

(kesi--defcommand kesi-start ()
  "Start KeSi (kesi-lsp, through eglot) for the current buffer's project.
Eglot gives each buffer one server: if another one manages this major
mode in this project, KeSi replaces it there after you confirm
\(`M-x eglot' brings it back)."
  nil
  (kesi-eglot-start))

(kesi--defcommand kesi-fix-this (&optional instruction)
  "KeSi: fix this line, or the region's lines, with their flymake diagnostics.
With a prefix argument, also ask for an INSTRUCTION (what to do, in your words)."
  (list (and current-prefix-arg (read-string "KeSi, fix this: ")))
  (kesi-eglot-fix instruction))

(kesi--defcommand kesi-ask (prompt)
  "Ask KeSi to do PROMPT in this project (about the region's lines, when active)."
  (list (read-string "Ask KeSi: "))
  (kesi-eglot-ask prompt))

(kesi--defcommand kesi-cancel ()
  "Stop the running run the way Ctrl-C stops the terminal KeSi.
Edits you already accepted stay."
  nil
  (kesi-eglot-cancel))

(kesi--defcommand kesi-compact ()
  "Summarise the older part of the conversation now, as a short run of its own.
The latest turns stay word for word; the summary's cost is a line of the bill."
  nil
  (kesi-eglot-compact))

(kesi--defcommand kesi-reset ()
  "Clear this session's conversation and read records (the seed's /reset)."
  nil
  (kesi-eglot-session-command "kesi.reset"))

(kesi--defcommand kesi-cost ()
  "Show this session's requests, tokens and cost in USD (the seed's /cost)."
  nil
  (kesi-eglot-session-command "kesi.cost"))

(kesi--defcommand kesi-permissions ()
  "Show the permissions granted for this session (the seed's /permissions)."
  nil
  (kesi-eglot-session-command "kesi.permissions"))

(kesi--defcommand kesi-mcp ()
  "Show this folder's MCP servers: where each came from, its state and its tools."
  nil
  (kesi-eglot-session-command "kesi.mcp"))

(kesi--defcommand kesi-mcp-login (server)
  "Sign in to the remote MCP server SERVER of this folder with OAuth.
The server's answer names the address to open in your browser; once you have
signed in there, a message says so and the server's tools are listed again."
  (list (read-string "Sign in to the MCP server: "))
  (kesi-eglot-session-command "kesi.mcpLogin" (list :server server)))

(kesi--defcommand kesi-mcp-logout (server)
  "Sign out of the remote MCP server SERVER of this folder: its tokens are deleted."
  (list (read-string "Sign out of the MCP server: "))
  (kesi-eglot-session-command "kesi.mcpLogout" (list :server server)))

(kesi--defcommand kesi-audit ()
  "Show this folder's audit log: what KeSi ran, edited, called and let through.
Each record says who decided."
  nil
  (kesi-eglot-session-command "kesi.audit"))

(kesi--defcommand kesi-revoke ()
  "Withdraw every permission granted for this session (the seed's /revoke)."
  nil
  (kesi-eglot-session-command "kesi.revoke"))

(kesi--defcommand kesi-tasks ()
  "Show this folder's background tasks: id, command, state, start, last line."
  nil
  (kesi-eglot-tasks))

(kesi--defcommand kesi-task-stop (&optional task-id)
  "Stop a background task (SIGTERM to its group, 3 s, SIGKILL).
With a prefix argument, ask for TASK-ID; else choose among the running ones."
  (list (and current-prefix-arg (read-string "Stop KeSi task: ")))
  (kesi-eglot-task-stop task-id))

(kesi--defcommand kesi-changes ()
  "List KeSi's changes you have not kept or undone yet (RET jumps to one)."
  nil
  (kesi-eglot-changes))

(kesi--defcommand kesi-keep (&optional all)
  "Keep KeSi's change at point, else this file's changes.
With a prefix argument (ALL), every change of the project."
  (list current-prefix-arg)
  (kesi-eglot-keep all))

(kesi--defcommand kesi-undo (&optional whole)
  "Undo KeSi's change at point, else this file's changes.
With a prefix argument (WHOLE), the file's.  A change you typed in since
is left alone, and named.  The undo is one edit: `undo' brings it back."
  (list current-prefix-arg)
  (kesi-eglot-undo whole))

(kesi--defcommand kesi-undo-run (&optional run-id)
  "Undo every change of the last run (with a prefix argument, ask for RUN-ID).
A file the run created is deleted, one it deleted restored, each only if
nobody changed it since.  Refused while a run is going: cancel it first."
  (list (and current-prefix-arg (read-string "Undo KeSi run: ")))
  (kesi-eglot-undo-run run-id))

(kesi--defcommand kesi-output (&optional clear)
  "Show or hide the `*kesi*' buffer; with a prefix argument (CLEAR), empty it."
  (list current-prefix-arg)
  (require 'kesi-output)
  (if clear (kesi-output-clear) (kesi-output-toggle)))

;;;; Start-up

(provide 'kesi)

(if kesi--problem
    (display-warning 'kesi kesi--problem :warning)
  (with-eval-after-load 'eglot
    (require 'kesi-run)))
;;; kesi.el ends here
