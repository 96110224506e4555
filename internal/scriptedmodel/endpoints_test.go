package scriptedmodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, readAll(t, resp.Body)
}

func TestHealthWhileLoading(t *testing.T) {
	s := New(RawTextReply("ready"))
	defer s.Close()

	s.LoadingFor(2)
	if r := post(t, s.URL(), chatBody); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("chat while loading answered %d", r.StatusCode)
	}
	var statuses []int
	for i := 0; i < 3; i++ {
		code, _ := get(t, s.URL()+"/health")
		statuses = append(statuses, code)
	}
	if statuses[0] != 503 || statuses[1] != 503 || statuses[2] != 200 {
		t.Errorf("health statuses = %v, want 503 503 200", statuses)
	}

	s.SetLoading(true)
	if code, body := get(t, s.URL()+"/health"); code != 503 || !strings.Contains(string(body), "Loading model") {
		t.Errorf("health = %d %s", code, body)
	}
	s.SetLoading(false)
	if code, body := get(t, s.URL()+"/health"); code != 200 || string(body) != `{"status":"ok"}` {
		t.Errorf("health = %d %s", code, body)
	}
	msg, _ := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))
	if msg.Content != "ready" {
		t.Errorf("the reply was spent while loading: %+v", msg)
	}
}

func TestModels(t *testing.T) {
	s := New()
	defer s.Close()
	s.SetModel("nvidia/Nemotron-Orchestrator-8B")
	code, body := get(t, s.URL()+"/v1/models")
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil || code != 200 || list.Object != "list" || len(list.Data) != 1 || list.Data[0].ID != "nvidia/Nemotron-Orchestrator-8B" {
		t.Errorf("models = %d %s", code, body)
	}
}

func TestTokenize(t *testing.T) {
	s := New()
	defer s.Close()
	client := &http.Client{Timeout: 10 * time.Second}
	for _, body := range []string{`{"prompt":"12345678"}`, `{"content":"12345678"}`, `{"messages":[{"role":"user","content":"1234"},{"role":"user","content":"5678"}]}`} {
		resp, err := client.Post(s.URL()+"/tokenize", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Count  int   `json:"count"`
			Tokens []int `json:"tokens"`
		}
		err = json.Unmarshal(readAll(t, resp.Body), &out)
		resp.Body.Close()
		if err != nil || out.Count != 2 || len(out.Tokens) != 2 {
			t.Errorf("tokenize %s = %+v, %v", body, out, err)
		}
	}
}

func TestUnknownRoute(t *testing.T) {
	s := New()
	defer s.Close()
	if code, body := get(t, s.URL()+"/v1/completions"); code != 404 || !strings.Contains(string(body), "no route") {
		t.Errorf("unknown route = %d %s", code, body)
	}
	if code, _ := get(t, s.URL()+"/v1/chat/completions"); code != 405 {
		t.Errorf("GET on chat completions = %d, want 405", code)
	}
}
