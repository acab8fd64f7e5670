package graft

// BufferedBytes returns the bytes of answers the router holds for its
// clients now (MaxBufferedBytes' count), for tests.
func BufferedBytes(r *Router) int64 { return r.load.buffered.Load() }

// StreamAnswersSettled returns how many messages of 64 KiB or more the
// streaming transports have held for their clients or refused, for tests.
func StreamAnswersSettled(r *Router) int64 { return r.load.streamSettled.Load() }

// SubscriptionEventsEncoded returns how many subscription events the
// router's engine has executed into an answer, for tests.
func SubscriptionEventsEncoded(r *Router) int64 { return r.engine.EventsEncoded() }
