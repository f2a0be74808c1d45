"""The JSON API's routers: auth, lobby, play, social, ops.

What they share (the services, who is asking) is in :mod:`meadhall.server.deps`; the
tables as pages show them in :mod:`meadhall.server.tables`; errors in
:mod:`meadhall.server.errors`.
"""
