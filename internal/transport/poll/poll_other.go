//go:build !linux

package poll

import "net"

type handle struct{}

func supported() bool { return false }

func watch(net.Conn, func()) *Handle { return nil }

func (h *handle) arm() bool { return false }
func (h *handle) closed()   {}
func (h *handle) stop()     {}
