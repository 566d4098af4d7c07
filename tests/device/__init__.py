"""Tests of the host side of the table box: link, bridge, simulator, CLI."""
