"""What starts and warms the app.

The commands' entry points, where the stylesheets live, a fork server's warm-up.
"""
