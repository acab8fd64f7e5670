package inprocess

// graftEngines returns graft's entries once its public API is there.
func graftEngines() []engine { return nil }
