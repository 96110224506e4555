package scriptedmodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// created is the fixed "created" stamp of every completion, so that
// responses are reproducible.
const created = 1700000000

// maxRequestBytes bounds a recorded request body.
const maxRequestBytes = 16 << 20

// chatRequest is the part of a request the server reads.
type chatRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type completion struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   Usage    `json:"usage"`
}

type choice struct {
	Index        int             `json:"index"`
	Message      json.RawMessage `json:"message"`
	Logprobs     *struct{}       `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
}

func (h *Handler) serveChat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	if err != nil {
		writeError(w, http.StatusBadRequest, "read request: "+err.Error())
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	if h.isLoading(false) {
		writeError(w, http.StatusServiceUnavailable, "Loading model")
		return
	}
	reply, n, ok := h.record(body)
	if !ok {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("scriptedmodel: script exhausted at request %d", n))
		return
	}
	if !h.wait(r, reply.Delay) {
		return
	}
	switch {
	case reply.RawBody != "":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply.RawBody)
	case reply.Status != 0 && reply.Status != http.StatusOK:
		writeError(w, reply.Status, fmt.Sprintf("scripted error %d", reply.Status))
	default:
		c := h.completion(req, reply, n, len(body))
		if req.Stream {
			writeStream(w, c, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
			return
		}
		writeJSON(w, http.StatusOK, c)
	}
}

// wait holds the reply back; it reports false when the client went away or
// the server is closing.
func (h *Handler) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-h.closing:
		return false
	}
}

// completion builds the response envelope of a scripted reply.
func (h *Handler) completion(req chatRequest, reply Reply, n, requestBytes int) completion {
	msg := reply.Message
	if len(msg) == 0 {
		msg = RawTextReply("").Message
	}
	finish := reply.FinishReason
	if finish == "" {
		finish = "stop"
	}
	usage := Usage{PromptTokens: estimateTokens(requestBytes), CompletionTokens: estimateTokens(len(msg))}
	usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	if reply.Usage != nil {
		usage = *reply.Usage
	}
	model := req.Model
	if model == "" {
		model = h.modelID()
	}
	return completion{
		ID: fmt.Sprintf("chatcmpl-%d", n), Object: "chat.completion", Created: created, Model: model,
		Choices: []choice{{Index: 0, Message: msg, FinishReason: finish}},
		Usage:   usage,
	}
}

// estimateTokens is a rough 4 bytes per token.
func estimateTokens(bytes int) int { return (bytes + 3) / 4 }

func (h *Handler) serveModels(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list",
		"data": []map[string]any{{
			"id": h.modelID(), "object": "model", "created": created, "owned_by": "scriptedmodel", "max_model_len": 40960,
		}},
	})
}

func (h *Handler) serveHealth(w http.ResponseWriter, _ *http.Request) {
	if h.isLoading(true) {
		writeError(w, http.StatusServiceUnavailable, "Loading model")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// serveTokenize accepts vLLM's {"prompt": ...} or {"messages": [...]} and
// llama-server's {"content": ...}, and answers both shapes at once.
func (h *Handler) serveTokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Prompt   string `json:"prompt"`
		Content  string `json:"content"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	h.mu.Lock()
	h.tokenizes = append(h.tokenizes, body)
	h.mu.Unlock()
	var text strings.Builder
	text.WriteString(req.Prompt + req.Content)
	for _, m := range req.Messages {
		text.WriteString(m.Content)
	}
	n := estimateTokens(text.Len())
	tokens := make([]int, n)
	for i := range tokens {
		tokens[i] = i
	}
	writeJSON(w, http.StatusOK, map[string]any{"count": n, "max_model_len": 40960, "tokens": tokens})
}

// writeError sends an OpenAI-style error body.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message": message, "type": errorType(status), "code": status,
	}})
}

func errorType(status int) string {
	switch {
	case status == http.StatusServiceUnavailable:
		return "unavailable_error"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(encode(v))
}
