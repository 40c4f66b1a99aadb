// Package ui is the Fyne front end: the main window, document tabs, the
// header, metadata and tensor panes, the tensor inspector and the graph tab.
// It renders viewmodel state and forwards user actions to it.
//
// Imports: viewmodel and graphview (and through them formats and tensor
// types), Fyne, gonum/plot and sqweek/dialog.
package ui
