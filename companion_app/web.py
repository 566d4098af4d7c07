"""Placeholder for the pages blueprint; the UI agent replaces this module."""

from flask import Blueprint

bp = Blueprint("web", __name__)
