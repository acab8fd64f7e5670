package loader

// ForgetUntrackedWarnings forgets which fetch functions were warned about
// an untracked Load, so that a test run again (-count) sees the warning
// again.
func ForgetUntrackedWarnings() { untrackedWarned.Clear() }
