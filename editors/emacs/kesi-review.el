;;; kesi-review.el --- The review of one KeSi edit, in a diff buffer  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `kesi/reviewEdit' {runId, uri, path, before, after, diff, title, question, actions} ->
;; {decision}.  The diff waits in a `diff-mode' buffer, `*kesi review: PATH*', under the
;; server's title and question, its answers listed in its order (Deny first, the seed's words
;; under zh-TW), each after its key:
;;   a / C-c C-c  accept          A  accept this and later edits to the file, for the session
;;   r / C-c C-k  reject          q  reject and close       e  see it in ediff as well
;; Killing the buffer rejects.  Nothing here touches the real file: the server applies an
;; accepted edit afterwards through `workspace/applyEdit', so it lands on the undo list.
;; The buffer is an ordinary one: the user may look at their code first and come back.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'diff-mode)
(require 'kesi)

(defvar-local kesi-review--respond nil "The function that sends this review's answer.")
(defvar-local kesi-review--run nil "The id of the run this review belongs to.")
(defvar-local kesi-review--origin nil "The window the user was in when the review opened.")
(defvar-local kesi-review--sides nil "The before and after buffers of ediff, if any.")
(defvar-local kesi-review--params nil "The review request's params.")

(defvar kesi-review-count 0 "How many reviews opened in this Emacs.")

(defvar kesi-review-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "a") #'kesi-review-accept)
    (define-key map (kbd "C-c C-c") #'kesi-review-accept)
    (define-key map (kbd "A") #'kesi-review-accept-session)
    (define-key map (kbd "r") #'kesi-review-reject)
    (define-key map (kbd "C-c C-k") #'kesi-review-reject)
    (define-key map (kbd "q") #'kesi-review-reject)
    (define-key map (kbd "e") #'kesi-review-ediff)
    map)
  "Keys of a KeSi review buffer.")

(define-minor-mode kesi-review-mode
  "A KeSi edit waiting for your answer.
a accept, A accept for the session, r or q reject, e ediff."
  :lighter " KeSi-review"
  :keymap kesi-review-mode-map)

(defconst kesi-review--keys '(("reject" . "r") ("accept" . "a") ("acceptSession" . "A"))
  "The key that gives each decision.")

(defun kesi-review--actions (params)
  "The server's answers of PARAMS, in its order, each after its key.
As in \"r Deny · a …\"."
  (mapconcat (lambda (action)
               (concat (cdr (assoc (plist-get action :decision) kesi-review--keys)) " "
                       (plist-get action :title)))
             (plist-get params :actions) " · "))

(defun kesi-review--said (params decision)
  "The server's words for DECISION among the answers of PARAMS."
  (plist-get (cl-find decision (plist-get params :actions)
                      :key (lambda (a) (plist-get a :decision)) :test #'equal)
             :title))

(defun kesi-review--help (params)
  "The header line of the review of PARAMS.
The server's title, question and answers."
  (concat (propertize (format " %s " (plist-get params :title)) 'face 'diff-header)
          (format "  %s  %s · q ✗ · e ediff" (plist-get params :question)
                  (kesi-review--actions params))))

(defun kesi-review--buffers ()
  "Every open review buffer."
  (cl-remove-if-not (lambda (b) (buffer-local-value 'kesi-review--respond b)) (buffer-list)))

(defun kesi-review--decide (buffer decision)
  "Answer BUFFER's review with DECISION and close it (once)."
  (when (buffer-live-p buffer)
    (let ((respond (buffer-local-value 'kesi-review--respond buffer))
          (params (buffer-local-value 'kesi-review--params buffer))
          (origin (buffer-local-value 'kesi-review--origin buffer)))
      (when respond
        (with-current-buffer buffer
          (setq kesi-review--respond nil)
          (mapc (lambda (b) (when (buffer-live-p b) (kill-buffer b))) kesi-review--sides))
        (dolist (window (get-buffer-window-list buffer nil t))
          (quit-window t window))
        (when (buffer-live-p buffer) (kill-buffer buffer))
        (when (window-live-p origin) (select-window origin))
        (funcall respond (list :decision decision))
        (message "KeSi: %s" (kesi-review--said params decision))))))

(defun kesi-review--current ()
  "The review to answer: the current buffer's, else the only one open."
  (or (and kesi-review--respond (current-buffer))
      (let ((all (kesi-review--buffers)))
        (if (= (length all) 1) (car all)
          (user-error (if all "KeSi: answer in the review buffer you mean"
                        "KeSi: no edit is waiting for review"))))))

(defun kesi-review-accept ()
  "Accept the edit under review."
  (interactive)
  (kesi-review--decide (kesi-review--current) "accept"))

(defun kesi-review-accept-session ()
  "Accept the edit, and later edits to the same file, for this session."
  (interactive)
  (kesi-review--decide (kesi-review--current) "acceptSession"))

(defun kesi-review-reject ()
  "Reject the edit under review: nothing changes, and the model is told."
  (interactive)
  (kesi-review--decide (kesi-review--current) "reject"))

(defun kesi-review--killed ()
  "A review buffer killed without an answer is a reject."
  (when kesi-review--respond
    (let ((respond kesi-review--respond))
      (setq kesi-review--respond nil)
      (mapc (lambda (b) (when (buffer-live-p b) (kill-buffer b))) kesi-review--sides)
      (funcall respond (list :decision "reject"))
      (message "KeSi: %s" (kesi-review--said kesi-review--params "reject")))))

(defun kesi-review--side (name text path)
  "A read-only buffer NAME holding TEXT, in the major mode of PATH."
  (with-current-buffer (generate-new-buffer name)
    (insert text)
    (let ((buffer-file-name path))
      (ignore-errors (set-auto-mode t)))
    (setq buffer-read-only t)
    (set-buffer-modified-p nil)
    (current-buffer)))

(defun kesi-review-ediff ()
  "See the edit under review in ediff; answer afterwards in the review buffer."
  (interactive)
  (let* ((review (kesi-review--current))
         (params (buffer-local-value 'kesi-review--params review))
         (path (or (plist-get params :path) "edit"))
         (before (kesi-review--side (format "*kesi before: %s*" path)
                                    (or (plist-get params :before) "") path))
         (after (kesi-review--side (format "*kesi after: %s*" path)
                                   (or (plist-get params :after) "") path)))
    (with-current-buffer review (setq kesi-review--sides (list before after)))
    (ediff-buffers before after
                   (list (lambda ()
                           (add-hook 'ediff-quit-hook
                                     (lambda () (when (buffer-live-p review)
                                                  (pop-to-buffer review)))
                                     90 t))))))

(defun kesi-review--text (params)
  "The unified diff to show for PARAMS (the server's, else one made here)."
  (let ((diff (plist-get params :diff)))
    (if (and (stringp diff) (not (string-empty-p diff)))
        diff
      (format "--- a/%s\n+++ b/%s\n(no textual difference)\n"
              (plist-get params :path) (plist-get params :path)))))

(defun kesi-review-request (_server params respond)
  "Open the review of PARAMS; RESPOND gets {decision} when the user answers."
  (let* ((path (or (plist-get params :path) "edit"))
         (origin (selected-window))
         (buffer (generate-new-buffer (format "*kesi review: %s*" path))))
    (cl-incf kesi-review-count)
    (with-current-buffer buffer
      (insert (kesi-review--text params))
      (diff-mode)
      (setq buffer-read-only t)
      (set-buffer-modified-p nil)
      (kesi-review-mode 1)
      ;; diff-mode binds single letters for read-only buffers (r narrows) in this list,
      ;; which wins over minor modes: the review's keys go first in it.
      (push (cons 'kesi-review-mode kesi-review-mode-map) minor-mode-overriding-map-alist)
      (setq header-line-format (kesi-review--help params))
      (setq kesi-review--respond respond
            kesi-review--params params
            kesi-review--run (plist-get params :runId)
            kesi-review--origin origin)
      (add-hook 'kill-buffer-hook #'kesi-review--killed nil t)
      (goto-char (point-min))
      (ignore-errors (diff-hunk-next)))
    (pop-to-buffer buffer '((display-buffer-reuse-window display-buffer-pop-up-window
                                                         display-buffer-use-some-window)))
    (message "KeSi: %s · %s  %s" (plist-get params :title) (plist-get params :question)
             (kesi-review--actions params))
    (when (eq kesi-review-style 'ediff)
      (with-current-buffer buffer (kesi-review-ediff)))))

(defun kesi-review-close-run (run-id)
  "Reject the open reviews of RUN-ID (nil: of every run); the run ended."
  (dolist (buffer (kesi-review--buffers))
    (when (or (null run-id) (equal run-id (buffer-local-value 'kesi-review--run buffer)))
      (kesi-review--decide buffer "reject"))))

(provide 'kesi-review)
;;; kesi-review.el ends here
