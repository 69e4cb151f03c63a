;;; kesi-tasks.el --- KeSi's background tasks: list, stop, and their lines  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Background tasks (issue 28): a command the agent left running (a dev server, a watcher).
;; `kesi-tasks' shows the folder's tasks, `kesi-task-stop' stops one (completing over the
;; running ones), and `kesi/tasks' puts the server's line in `*kesi*' when a task starts or
;; ends.  Every line is the server's own; this file only shows them.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eglot)
(require 'kesi-eglot)
(require 'kesi-output)

(declare-function kesi--line "kesi-output")

(defun kesi-eglot-tasks ()
  "Show the folder's background tasks in the echo area."
  (let ((uri (kesi--uri)))
    (kesi--execute (kesi--server) "kesi.tasks" (and uri (list :uri uri))
                   (lambda (result)
                     (message "%s" (kesi-output-said result "kesi.tasks done"))))))

(defun kesi--stop-task (server uri task-id)
  "Ask SERVER to stop TASK-ID of the folder of URI; say what it answered."
  (kesi--execute server "kesi.stopTask"
                 (append (list :taskId task-id) (and uri (list :uri uri)))
                 (lambda (result)
                   (message "%s" (kesi-output-said result "kesi.stopTask done")))))

(defun kesi-eglot-task-stop (&optional task-id)
  "Stop TASK-ID; without one, choose among the running tasks by their lines."
  (let ((server (kesi--server))
        (uri (kesi--uri)))
    (if (and task-id (not (string-empty-p task-id)))
        (kesi--stop-task server uri task-id)
      (kesi--execute
       server "kesi.tasks" (and uri (list :uri uri))
       (lambda (result)
         (let* ((tasks (append (plist-get result :tasks) nil))
                (running (cl-remove-if-not
                          (lambda (task) (equal (plist-get task :state) "running")) tasks)))
           (if (null running)
               (message "%s" (kesi-output-said result "no background task"))
             (let* ((choices (mapcar (lambda (task) (cons (plist-get task :line)
                                                          (plist-get task :taskId)))
                                     running))
                    (picked (completing-read "KeSi: stop which task? " choices nil t)))
               (when-let ((id (cdr (assoc picked choices))))
                 (kesi--stop-task server uri id))))))))))

(cl-defmethod eglot-handle-notification
  ((_server kesi-server) (_method (eql kesi/tasks)) &rest params)
  "A background task started or ended: the server's line, in `*kesi*'."
  (when-let ((line (plist-get params :line)))
    (kesi--line line 'shadow)))

(provide 'kesi-tasks)
;;; kesi-tasks.el ends here
