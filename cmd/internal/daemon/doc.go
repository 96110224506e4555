// Package daemon is toolhub's composition root: it turns a loaded config into
// a running hub with its built-in providers and servers. It is the only
// package that imports all of toolhub's packages; both binaries and the
// end-to-end tests build everything through it.
package daemon
