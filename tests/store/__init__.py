"""Tests of the store: schema migrations and databases written by earlier releases."""
