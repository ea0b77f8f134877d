"""The app's endpoints, one router per resource:

``meta`` (rulesets, health, the lobby's list of games), ``games`` (create and read a game), ``actions``
(play and undo), ``records`` (record, replay, import), ``socket`` (live updates), ``pages`` (the page and
its static files)."""
