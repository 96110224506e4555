// Package httpstop lets an http.Server's Shutdown close, at once, the
// connections a client opened without sending a request on them, as it
// already does with idle ones, instead of waiting five seconds for them.
package httpstop
