//go:build !linux

package tensor

const mapPopulate = 0
