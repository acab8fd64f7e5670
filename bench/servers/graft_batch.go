//go:build !solo || solo_graft_upstream || solo_graft_upstream_plain || solo_graft_upstream_raw || solo_graft_tailcall || solo_graft_tailcall_raw || solo_graft_tailcall_dedupe

package servers

// batchError is err for each of n parents.
func batchError(n int, err error) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}
