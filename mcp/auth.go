package mcp

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// tokenBytes is how much randomness a generated token carries.
const tokenBytes = 32

// minTokenLen is the shortest token toolhub accepts from a file.
const minTokenLen = 16

// DefaultTokenFile is where the HTTP bearer token lives unless
// --token-file says otherwise: <user config dir>/toolhub/token.
func DefaultTokenFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the user config directory: %w", err)
	}
	return filepath.Join(dir, "toolhub", "token"), nil
}

// LoadOrCreateToken returns the token stored in path. When path does not
// exist it is created (mode 0600, its directory 0700 when that is created
// too) holding a new random token: 32 bytes, base64url.
func LoadOrCreateToken(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createTokenFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("read token file: %w", err)
	}
	warnIfShared(path)
	token, err := parseToken(data)
	if err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	return token, nil
}

func createTokenFile(path string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create token directory: %w", err)
	}
	token, err := newToken()
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadOrCreateToken(path) // made meanwhile by another toolhub
	}
	if err != nil {
		return "", fmt.Errorf("create token file: %w", err)
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		return "", fmt.Errorf("write token file: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("write token file: %w", err)
	}
	return token, nil
}

func newToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// parseToken reads a token file's content: one line of visible ASCII, at
// least minTokenLen characters, surrounding whitespace ignored.
func parseToken(data []byte) (string, error) {
	token := strings.TrimSpace(string(data))
	if len(token) < minTokenLen {
		return "", fmt.Errorf("the token must be at least %d characters", minTokenLen)
	}
	for _, c := range []byte(token) {
		if c < 0x21 || c > 0x7e {
			return "", errors.New("the token must be one word of visible ASCII characters")
		}
	}
	return token, nil
}

// warnIfShared logs when other users may read the token file, where mode
// bits say so (not on Windows).
func warnIfShared(path string) {
	if !modeBitsGuardFiles {
		return
	}
	st, err := os.Stat(path)
	if err == nil && st.Mode().Perm()&0o077 != 0 {
		slog.Warn("token file is readable by other users; chmod 600 it", "file", path, "mode", st.Mode().Perm().String())
	}
}

// requireBearer answers 401 unless the request carries
// "Authorization: Bearer <token>". Both sides are hashed before a
// constant-time comparison, so neither the token nor its length leaks
// through timing. CORS preflights, which browsers send without
// credentials, are answered before it (originPolicy.cors). The answer comes as
// soon as the headers are in: the body is not waited for (see
// bodyPace.refuseUnread).
func requireBearer(token string, pace bodyPace, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok {
			pace.refuseUnread(w, r)
			unauthorized(w, `Bearer realm="toolhub"`, "this endpoint needs an Authorization: Bearer token")
			return
		}
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			pace.refuseUnread(w, r)
			unauthorized(w, `Bearer realm="toolhub", error="invalid_token"`, "the bearer token is not toolhub's")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken extracts the token of an Authorization header value.
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

func unauthorized(w http.ResponseWriter, challenge, msg string) {
	w.Header().Set("WWW-Authenticate", challenge)
	http.Error(w, msg, http.StatusUnauthorized)
}
