;;; kesi-prompt.el --- KeSi's permission prompts, where RET is the safe answer  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `window/showMessageRequest' from kesi-lsp: "Run command: pytest -q", why it asks, and
;; the actions Deny, Allow once, Allow for this session (under zh-TW the seed's 不要, 這次,
;; 這個 session 都好; the server lists the safe one first).  Eglot pre-fills the minibuffer
;; with the first action, so a bare RET grants whatever the server listed first; here the
;; minibuffer starts empty and RET gives Deny, whatever the order (issue 17 item 4).  C-g
;; denies too.  One prompt at a time, and never on top of a minibuffer the user is typing
;; in: a prompt waits until that one is done.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defconst kesi-prompt-deny-titles '("Deny" "不要")
  "The titles of the safe action in the server's locales (design §2.6).
English, and the seed's Day 14 「不要」 under zh-TW.")

(defvar kesi--prompting nil "Non-nil while a KeSi prompt is in the minibuffer.")

(defun kesi-prompt--titles (actions)
  "The titles of ACTIONS (MessageActionItem plists)."
  (delq nil (mapcar (lambda (a) (plist-get a :title)) (append actions nil))))

(defun kesi-prompt--text (message titles default)
  "The minibuffer prompt for MESSAGE with TITLES; DEFAULT is what RET gives."
  (format "[KeSi] %s\n%s%s: "
          (string-trim-right (or message ""))
          (string-join titles ", ")
          (if default (format " (RET = %s)" default) "")))

(defun kesi-prompt-ask (message actions)
  "Ask MESSAGE with ACTIONS in the minibuffer; return the chosen title, or nil.
RET alone answers Deny when it is one of the actions; C-g answers nil."
  (let* ((titles (kesi-prompt--titles actions))
         (default (cl-find-if (lambda (title) (member title kesi-prompt-deny-titles)) titles))
         (kesi--prompting t)
         (answer (condition-case nil
                     (completing-read (kesi-prompt--text message titles default)
                                      titles nil t nil nil default)
                   (quit nil))))
    (cond ((member answer titles) answer)
          (t default))))

(defun kesi-prompt-request (server params respond)
  "Answer SERVER's `window/showMessageRequest' PARAMS through RESPOND.
Only when the minibuffer is free: until then, the prompt waits."
  (if (or kesi--prompting (active-minibuffer-window))
      (run-at-time 0.2 nil #'kesi-prompt-request server params respond)
    (let ((title (kesi-prompt-ask (plist-get params :message) (plist-get params :actions))))
      (when (member title kesi-prompt-deny-titles)
        (message "KeSi: denied · %s"
                 (car (split-string (or (plist-get params :message) "") "\n"))))
      (funcall respond (and title (list :title title))))))

(provide 'kesi-prompt)
;;; kesi-prompt.el ends here
