// Package proc starts a child process as the root of a process tree that
// can be stopped as a whole, on every platform toolhub supports, with a
// minimal environment and pipes toolhub owns ([StartChild]), its command
// found in that environment as the platform's shell would ([LookPath]).
//
// On Linux and macOS the child leads a new process group (Setpgid): the
// graceful stop is SIGTERM to the group, the hard stop SIGKILL to it.
//
// On Windows the child is created suspended in a new console process group
// (CREATE_NEW_PROCESS_GROUP), assigned to a Job Object with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and only then resumed, so every process
// it starts belongs to the job too. The graceful stop is CTRL_BREAK_EVENT to
// the group (GenerateConsoleCtrlEvent, which reaches the tree only when it
// shares toolhub's console), the hard stop TerminateJobObject. When toolhub
// itself dies, Windows closes the job handle and ends the tree.
//
// [Stop] is the sequence both use: wait for the child to exit by itself,
// then the graceful stop, then the hard one once a grace period has passed.
package proc
