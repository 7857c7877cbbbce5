"""The doors: what runs a front end (app/ or reader/) for a remote player.

``command`` is ``paris-tui host``: the host with its doors. ``ssh`` is the SSH door
(with ``ssh_config``, ``ssh_keys``, ``ssh_session``, ``ssh_link`` and ``ssh_app``),
``web`` the browser door. ``zygote`` is the fork server that starts their apps warm
(``forks`` the host's side of it, ``fork_protocol`` what the two say, ``fork_child``
a child's set-up, ``heap`` its heap made ready for forking); ``starts`` the queue that
lets a few logins start at once."""
