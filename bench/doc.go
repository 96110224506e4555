// Package bench holds toolhub's whole-system benchmarks: each builds the real
// components in process, drives them with real work and reports timings as
// percentiles. The `toolhub bench` subcommands print what these return.
package bench
