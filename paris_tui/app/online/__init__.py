"""What talks to a host: a seat at a host's table, the chat pane, friends, the move clock's look."""
