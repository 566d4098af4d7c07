"""Tests of the app's side of the table box: display, reveals, long poll, panel."""
