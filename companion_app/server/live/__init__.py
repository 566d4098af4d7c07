"""Live pages and held long polls on the server front's event loop (docs/live.md).

`hub` notices changes and runs the rounds; `groups` keeps who follows what; `renders` renders
each group's page once per change and pushes it; `pages` is the pages' side (which pages are
live, their version, rendering as a plain viewer); `panel` the box panel's frames and status;
`stream` one stream's events; `polls` the device API's held long polls.
"""
