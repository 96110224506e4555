// Package conductor is the episode engine: it runs one orchestration episode
// at a time over the hub's tools and the configured models, asking a policy
// what to do next, doing it under the guard, the budget and the deadline,
// and recording every step with its tokens, cost and time.
package conductor
