// Package viewmodel holds all of the viewer's state and logic that can be
// tested without a window: open documents and tabs, the selected tensor,
// heatmap and histogram settings, background computations with progress and
// cancellation, recent files.
//
// Imports: formats, tensor and graphview; never Fyne widgets (ui draws what
// viewmodel says).
package viewmodel
