"""Tests of the web server, lobby API, websockets and browser UI."""
