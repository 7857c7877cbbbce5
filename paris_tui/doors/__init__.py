"""The doors: what runs a front end (app/ or reader/) for a remote player.

``command`` is ``paris-tui host``: the host with its doors. ``ssh`` is the SSH door,
``web`` the browser door, ``zygote`` the fork server that starts their apps warm,
``starts`` the queue that lets a few logins start at once."""
