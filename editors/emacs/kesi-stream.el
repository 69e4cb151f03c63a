;;; kesi-stream.el --- What each piece of a run's story writes in *kesi*  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `kesi/stream' {runId, kind, ...} and `kesi/runFinished' (design §2.5), turned into lines
;; of the `*kesi*' buffer and the run's state (kesi-output.el keeps both).
;;
;; - A search sub-agent's events carry `parentToolUseId', `agent' and `depth' (issue 15):
;;   its text and tool lines are indented under the call that started it, and when the
;;   call's result comes back its bill follows, the search's sub-total on a line of its own.
;; - A usage event of `purpose' "compaction" (a summary of the conversation) is a line of the
;;   bill of its own.  Both lines use the server's words for log clients (the catalog's
;;   `lsp.log.bill.*', in the session's locale), with the figures the event carries.
;; - Notices that only inform (a resumed conversation, a summary) are information, not
;;   warnings; Day 15's start-up lines (the working directory, the sandbox) are printed
;;   plainly, as the seed prints them.
;; - `kesi/plan' stands at the head of the buffer while its run lives (kesi-plan.el).
;; - The end of a run is told in the server's words (`statusText', Day 18's `bill'), with the
;;   limit that stopped it (`limit', e.g. repeating) and the server's verdict on its changes
;;   (`verified') beside the bill.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'kesi)
(require 'kesi-output)
(require 'kesi-plan)

(defconst kesi-stream-indent "    " "How far a sub-agent's lines are indented, per level.")

;;;; The server's words for the bill's own lines

(defconst kesi--bill-words
  '((compaction
     "(summary of the conversation: input %2$s, cache read %3$s, cache write %4$s, \
output %5$s, $%6$s)"
     "（濃縮對話：input %2$s、快取讀 %3$s、快取寫 %4$s、output %5$s，$%6$s）")
    (search
     "(search: %1$s request(s), input %2$s, cache read %3$s, cache write %4$s, \
output %5$s, $%6$s)"
     "（搜尋：%1$s 次請求，input %2$s、快取讀 %3$s、快取寫 %4$s、output %5$s，$%6$s）"))
  "The server's words for a summary's and a search's bill line, English and zh-TW.
Its catalog's `lsp.log.bill.compaction' and `lsp.log.bill.search', with the
figures in this order: requests, input, cache read, cache write, output, cost.")

(defun kesi--thousands (n)
  "N with thousands separators, as the bill prints it: 17,003."
  (let ((digits (format "%d" (or n 0))))
    (while (string-match "\\([0-9]\\)\\([0-9]\\{3\\}\\)\\(,\\|$\\)" digits)
      (setq digits (replace-match "\\1,\\2\\3" t nil digits)))
    digits))

(defun kesi-stream-bill-line (what usage)
  "The bill's own line for WHAT (`compaction' or `search'), with USAGE's figures."
  (let ((words (alist-get what kesi--bill-words)))
    (format (if (equal (kesi-output-locale) "zh-TW") (cadr words) (car words))
            (kesi--thousands (plist-get usage :requests))
            (kesi--thousands (plist-get usage :inputTokens))
            (kesi--thousands (plist-get usage :cacheReadTokens))
            (kesi--thousands (plist-get usage :cacheWriteTokens))
            (kesi--thousands (plist-get usage :outputTokens))
            (format "%.4f" (or (plist-get usage :costUsd) 0)))))

;;;; The story as it streams

(defvar kesi--searches (make-hash-table :test #'equal)
  "The id of a search's tool call -> its latest sub-total, until its result comes.")

(defun kesi-stream-describe-input (input)
  "A short, readable form of a tool's INPUT plist."
  (cond
   ((not (consp input)) "")
   ((plist-member input :items) "")     ; the todo tool: the plan itself heads `*kesi*'
   (t (let ((shown (cl-loop for key in '(:command :task :file_path :path :pattern :glob)
                            for value = (plist-get input key)
                            when (stringp value)
                            return (if (and (eq key :pattern) (stringp (plist-get input :path))
                                            (not (string-empty-p (plist-get input :path))))
                                       (format "%s in %s" value (plist-get input :path))
                                     value))))
        (replace-regexp-in-string "\n" " ⏎ " (or shown (format "%S" input)))))))

(defun kesi--tool-end (params indent)
  "The result line of a tool (`toolEnd' PARAMS) after INDENT.
A search's bill follows its result."
  (let* ((summary (plist-get params :summary))
         (text (replace-regexp-in-string
                "\n" " ⏎ " (if (and (stringp summary) (not (string-empty-p summary)))
                               summary
                             (or (plist-get params :tool) "?"))))
         (use-id (plist-get params :toolUseId))
         (subtotal (and (stringp use-id) (gethash use-id kesi--searches))))
    (if (eq (plist-get params :isError) t)
        (kesi--line (concat "  ✗ " text) 'kesi-tool-error indent)
      (kesi--line (concat "  ✓ " text) 'kesi-tool-ok indent))
    (when subtotal
      (remhash use-id kesi--searches)
      (kesi--line (kesi-stream-bill-line 'search subtotal) 'kesi-cost
                  (concat indent kesi-stream-indent)))))

(defun kesi--usage (server run-id params depth indent)
  "A usage event PARAMS of RUN-ID (SERVER's) at DEPTH, its lines after INDENT.
The costs, and the bill's own lines."
  (let ((run (plist-get params :run)) (session (plist-get params :session))
        (purpose (plist-get params :purpose)))
    (when (numberp (plist-get run :costUsd))
      (kesi--run-put run-id :cost (plist-get run :costUsd)))
    (when (numberp (plist-get session :costUsd))
      (kesi-output-note-session-cost server session))
    (cond
     ((and (equal purpose "compaction") (consp (plist-get params :request)))
      (kesi--line (kesi-stream-bill-line 'compaction (plist-get params :request)) 'kesi-cost
                  (concat indent "  ")))
     ((and (equal purpose "search") (> depth 0) (stringp (plist-get params :parentToolUseId))
           (consp (plist-get params :subtotal)))
      (puthash (plist-get params :parentToolUseId) (plist-get params :subtotal)
               kesi--searches)))))

(defun kesi--turn (run-id params depth)
  "A turn of RUN-ID (PARAMS): the run's own at DEPTH 0, else its search's."
  (let ((turn (plist-get params :turn)) (most (plist-get params :maxTurns)))
    (when (numberp turn)
      (kesi--run-put run-id (if (> depth 0) :search-turn :turn)
                     (if (numberp most) (format "%d/%d" turn most) (number-to-string turn))))))

(defun kesi-stream-event (server params)
  "Show one `kesi/stream' notification PARAMS of SERVER."
  (let* ((run-id (plist-get params :runId))
         (tool (or (plist-get params :tool) "?"))
         (depth (if (natnump (plist-get params :depth)) (plist-get params :depth) 0))
         (indent (apply #'concat (make-list depth kesi-stream-indent))))
    (when (stringp run-id)
      (kesi--ensure-run server run-id nil)
      (pcase (plist-get params :kind)
        ("text" (kesi--text (or (plist-get params :text) "") indent))
        ("toolStart"
         (let ((detail (kesi-stream-describe-input (plist-get params :input))))
           (kesi--line (concat "▸ " tool (if (string-empty-p detail) "" (concat " " detail)))
                       'kesi-tool indent)))
        ("toolEnd"
         (when (= depth 0) (kesi--run-put run-id :search-turn nil))
         (kesi--tool-end params indent))
        ("notice" (let ((text (format "%s" (or (plist-get params :text) ""))))
                    (if (member (plist-get params :notice) '("workspace" "sandbox"))
                        (kesi--line text 'kesi-startup (concat indent "  ")) ; Day 15
                      (kesi--notice text nil (plist-get params :notice) indent))))
        ("edit" (kesi--line (format "✎ %s %s" tool (or (plist-get params :path) ""))
                            'kesi-tool-ok indent))
        ("turn" (kesi--turn run-id params depth))
        ("usage" (kesi--usage server run-id params depth indent))))))

;;;; The plan

(defun kesi-stream-plan (server params)
  "Show the plan of `kesi/plan' PARAMS of SERVER at the head of `*kesi*'."
  (let ((run-id (plist-get params :runId)))
    (when (and (stringp run-id) (plist-get params :items))
      (kesi--ensure-run server run-id nil)
      (if (plist-get (kesi-output-run run-id) :finished)
          (kesi--run-put run-id :plan (kesi-plan-items params)) ; too late for the head
        (kesi-plan-show run-id params)))))

;;;; The end of a run

(defun kesi-stream-status (params)
  "How the end of a run (`kesi/runFinished' PARAMS) names its status.
The server's `statusText' (its locale), with the limit that stopped it."
  (let ((status (or (plist-get params :statusText) (plist-get params :status) "done"))
        (limit (plist-get params :limit)))
    (if (and (stringp limit) (not (string-empty-p limit)))
        (format "%s (%s)" status limit)
      status)))

(defun kesi-stream-footer (params cost)
  "What the end of a run says (`kesi/runFinished' PARAMS), in the server's words.
Its status (`kesi-stream-status'), the verdict on its changes, and the seed's
Day 18 bill line (`bill', absent when the run made no request); an older
server that sends neither gets the status and COST."
  (let ((bill (plist-get params :bill))
        (status (string-join (delq nil (list (kesi-stream-status params)
                                             (kesi-plan-verdict (plist-get params :verified))))
                             " · ")))
    (cond ((and (stringp bill) (not (string-empty-p bill))) (format "%s · %s" status bill))
          ((stringp (plist-get params :statusText)) status)
          (t (format "%s · %s" status (kesi-output-format-cost cost))))))

(defun kesi-stream-finish (server params)
  "The end of a run (`kesi/runFinished' PARAMS of SERVER): the bill, and one line."
  (let* ((run-id (plist-get params :runId))
         (status (or (plist-get params :status) "done"))
         (usage (plist-get params :usage))
         (text (plist-get params :text))
         (why (and (not (equal status "done")) (stringp text) (not (string-empty-p text)))))
    (when (stringp run-id)
      (kesi--ensure-run server run-id nil)
      (when (numberp (plist-get usage :costUsd))
        (kesi--run-put run-id :cost (plist-get usage :costUsd)))
      (when-let ((session (plist-get params :sessionUsage)))
        (kesi-output-note-session-cost server session))
      (kesi--run-put run-id :status status)
      (kesi--run-put run-id :limit (plist-get params :limit))
      (kesi--run-put run-id :search-turn nil)
      (kesi--run-put run-id :finished (cl-incf kesi--finished-count))
      (when (equal (gethash server kesi--active) run-id)
        (remhash server kesi--active))
      (kesi--run-put run-id :verified (plist-get params :verified))
      (when why (kesi--notice text t)) ; why it stopped (a done run's text was streamed)
      (kesi-plan-record run-id)
      (when-let ((verdict (kesi-plan-verdict-line (plist-get params :verified))))
        (kesi--line verdict))
      (let ((footer (kesi-stream-footer params (plist-get (kesi-output-run run-id) :cost))))
        (kesi--line (concat "── " footer)
                    (pcase status ("done" 'kesi-done) ("failed" 'kesi-failed) (_ 'kesi-stopped)))
        (message "KeSi: %s%s" footer
                 (if why (concat " · " (car (split-string text "\n"))) ""))))))

(provide 'kesi-stream)
;;; kesi-stream.el ends here
