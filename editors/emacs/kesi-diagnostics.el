;;; kesi-diagnostics.el --- What Emacs reports about a file, for KeSi  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; An edit that lands is not an edit that works (Day 09).  After an edit settles, kesi-lsp
;; asks `kesi/diagnostics' {uris} (design §2.10) and tells the model which errors and
;; warnings are new.  Only the editor sees what every checker reports, so the answer is
;; flymake's: each file's diagnostics from every backend (eglot's language server, a linter,
;; a test runner), as LSP diagnostics, `{items: [{uri, diagnostics, changes}]}'.
;;
;; `changes' counts how many times the file's diagnostics were reported (flymake's reports,
;; counted as they come), so the server knows when a checker has looked at the file again
;; after the change instead of waiting its whole bound.  KeSi's own diagnostics (source
;; "KeSi", its changes not reviewed yet) describe its changes, not problems in them: they are
;; left out, and a report that carries only them is not counted.
;;
;; The same conversion gives "KeSi: fix this" the diagnostics of the lines it is about.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'flymake)
(require 'kesi)

(declare-function eglot--pos-to-lsp-position "eglot")
(declare-function eglot--uri-to-path "eglot")
(declare-function eglot-uri-to-path "eglot")

(defconst kesi-diagnostics-own-source "KeSi"
  "The source of the server's own diagnostics (design §2.9).")

(defun kesi-diagnostics--position (pos)
  "The LSP position of POS in the current buffer, in the server's encoding."
  (if (fboundp 'eglot--pos-to-lsp-position)
      (eglot--pos-to-lsp-position pos)
    (save-excursion
      (goto-char pos)
      (list :line (1- (line-number-at-pos pos t))
            :character (/ (length (encode-coding-string
                                   (buffer-substring (line-beginning-position) pos)
                                   'utf-16le))
                          2)))))

(defun kesi-diagnostics--severity (type)
  "The LSP severity of a flymake diagnostic TYPE (:error, eglot-warning, ...)."
  (let ((category (if (keywordp type) type (get type 'flymake-category))))
    (pcase category
      ((or :error 'flymake-error) 1)
      ((or :warning 'flymake-warning) 2)
      (_ 3))))

(defun kesi-diagnostics--lsp-data (diag)
  "The LSP diagnostic eglot made DIAG from, or nil."
  (let ((data (flymake-diagnostic-data diag)))
    (and (listp data) (alist-get 'eglot-lsp-diag data))))

(defun kesi-diagnostics-own-p (diag)
  "Whether flymake's DIAG is one of KeSi's own (its changes, not a problem)."
  (equal (plist-get (kesi-diagnostics--lsp-data diag) :source) kesi-diagnostics-own-source))

(defun kesi-diagnostics-to-lsp (diag)
  "Flymake's DIAG as an LSP diagnostic.
The language server's own when eglot has it."
  (or (kesi-diagnostics--lsp-data diag)
      (list :range (list :start (kesi-diagnostics--position (flymake-diagnostic-beg diag))
                         :end (kesi-diagnostics--position (flymake-diagnostic-end diag)))
            :severity (kesi-diagnostics--severity (flymake-diagnostic-type diag))
            :message (flymake-diagnostic-text diag)
            :source (format "%s" (flymake-diagnostic-backend diag)))))

(defun kesi-diagnostics-between (beg end)
  "Flymake's diagnostics between BEG and END as LSP's (a vector).
KeSi's own are left out."
  (vconcat (cl-loop for diag in (and (bound-and-true-p flymake-mode)
                                     (flymake-diagnostics beg end))
                    unless (kesi-diagnostics-own-p diag)
                    collect (kesi-diagnostics-to-lsp diag))))

;;;; Counting reports

(defvar-local kesi-diagnostics--reports 0
  "How many reports flymake's backends made in this buffer.
KeSi's own are left out.")
(defvar-local kesi-diagnostics--eglot-foreign nil
  "Whether eglot's last report here carried diagnostics other than KeSi's.")

(defun kesi-diagnostics--count (backend _token report-action &rest _)
  "After flymake handled BACKEND's REPORT-ACTION: count it unless it is KeSi's.
Eglot's report carries what its server publishes; when that server is KeSi,
the report holds only its own notes, and is no checker looking again."
  (when (listp report-action)                 ; diagnostics, not :panic
    (if (not (eq backend 'eglot-flymake-backend))
        (cl-incf kesi-diagnostics--reports)
      (let ((foreign (cl-some (lambda (d) (not (kesi-diagnostics-own-p d))) report-action)))
        (when (or foreign kesi-diagnostics--eglot-foreign)
          (cl-incf kesi-diagnostics--reports))
        (setq kesi-diagnostics--eglot-foreign foreign)))))

(defconst kesi-diagnostics-counting (fboundp 'flymake--handle-report)
  "Whether this flymake lets KeSi count reports.
Else `changes' is not sent.")

(when kesi-diagnostics-counting
  (advice-add 'flymake--handle-report :after #'kesi-diagnostics--count))

(defun kesi-diagnostics-unload-function ()
  "Stop counting when the feature is unloaded."
  (advice-remove 'flymake--handle-report #'kesi-diagnostics--count)
  nil)

;;;; kesi/diagnostics

(defun kesi-diagnostics--file (uri)
  "The file name of URI, as eglot reads it."
  (if (fboundp 'eglot-uri-to-path) (eglot-uri-to-path uri) (eglot--uri-to-path uri)))

(defun kesi-diagnostics-item (uri)
  "The answer's item for URI: {uri, diagnostics, changes}."
  (let ((buffer (and (stringp uri) (find-buffer-visiting (kesi-diagnostics--file uri)))))
    (if (not buffer)
        (append (list :uri uri :diagnostics [])
                (and kesi-diagnostics-counting (list :changes 0)))
      (with-current-buffer buffer
        (let ((diagnostics (save-restriction
                             (widen)
                             (kesi-diagnostics-between (point-min) (point-max)))))
          (append (list :uri uri :diagnostics diagnostics)
                  (and kesi-diagnostics-counting
                       ;; Reports from before this file loaded still mean a checker looks.
                       (list :changes (max kesi-diagnostics--reports
                                           (if (> (length diagnostics) 0) 1 0))))))))))

(defun kesi-diagnostics-answer (uris)
  "The answer to `kesi/diagnostics' {URIS}: {items: [{uri, diagnostics, changes}]}."
  (list :items (vconcat (mapcar #'kesi-diagnostics-item (append uris nil)))))

(provide 'kesi-diagnostics)
;;; kesi-diagnostics.el ends here
