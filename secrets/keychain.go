package secrets

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	gokeyring "github.com/zalando/go-keyring"
)

// keyring is the part of a system keychain the store uses. go-keyring's
// package functions are the production one; tests use its MockInit or a
// fake that never answers.
type keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// systemKeyring is the keychain go-keyring talks to on this OS.
type systemKeyring struct{}

func (systemKeyring) Get(service, user string) (string, error) { return gokeyring.Get(service, user) }
func (systemKeyring) Set(service, user, password string) error {
	return gokeyring.Set(service, user, password)
}
func (systemKeyring) Delete(service, user string) error { return gokeyring.Delete(service, user) }

// opTimeout bounds one keychain call after the probe answered; it is long
// enough for the user to answer an unlock prompt.
const opTimeout = 30 * time.Second

// probeUser is the entry the probe asks for; it is never written.
const probeUser = "toolhub-keychain-probe"

// probe asks the keychain for an entry that does not exist: an answer,
// found or not, means it works.
func probe(ring keyring, service string, wait time.Duration) error {
	_, err := call(wait, func() (string, error) { return ring.Get(service, probeUser) })
	if err == nil || errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

func ringGet(ring keyring, service, name string) (string, error) {
	return call(opTimeout, func() (string, error) { return ring.Get(service, name) })
}

func ringSet(ring keyring, service, name, value string) error {
	_, err := call(opTimeout, func() (string, error) { return "", ring.Set(service, name, value) })
	return err
}

func ringDelete(ring keyring, service, name string) error {
	_, err := call(opTimeout, func() (string, error) { return "", ring.Delete(service, name) })
	return err
}

// call runs fn with a timeout, mapping go-keyring's not-found to
// ErrNotFound. go-keyring has no way to cancel a call, so a call that
// never answers is left behind in its goroutine.
func call(wait time.Duration, fn func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case r := <-done:
		if errors.Is(r.err, gokeyring.ErrNotFound) {
			return "", ErrNotFound
		}
		if r.err != nil {
			// go-keyring's errors name the service and entry, never a value.
			return "", fmt.Errorf("%s: %w", keychainName(), r.err)
		}
		return r.v, nil
	case <-timer.C:
		return "", fmt.Errorf("%s did not answer within %v", keychainName(), wait)
	}
}

// plainProbeError is why the keychain probe failed, in a user's words where
// the cause is the usual one: on Linux without a desktop session there is
// no D-Bus session bus (go-keyring then reports that dbus-launch, which it
// tries last, is not installed), so no Secret Service can be reached.
func plainProbeError(err error) string {
	text := err.Error()
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" &&
		(strings.Contains(text, "dbus-launch") || strings.Contains(text, "DBUS_SESSION_BUS_ADDRESS")) {
		return "there is no D-Bus session here (no desktop session), so no Secret Service keychain can be reached"
	}
	return text
}

// keychainName names this OS's keychain for messages.
func keychainName() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS Keychain"
	case "windows":
		return "Windows Credential Manager"
	}
	return "Secret Service"
}
