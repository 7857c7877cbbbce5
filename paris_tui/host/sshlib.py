"""asyncssh, imported without the deprecation warnings it sets off as it loads.

cryptography 51 deprecates DSA, and asyncssh (2.24) names the DSA key classes in
its type annotations, so importing it writes five ``CryptographyDeprecationWarning``
lines to stderr: at every ``paris-tui host`` start, before anything the host says.
They come from the annotations, not from any key in use (the host key is
ed25519), and an operator can do nothing about them. Every module of the
package takes asyncssh from here, so that whichever imports it first, it loads
quietly; other warnings stay as they are.
"""

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="DSA is deprecated")
    import asyncssh

__all__ = ["asyncssh"]
