"""The web's application: ASGI, so that an event stream (``/api/v1/stream/events/``)
waits on the event loop instead of holding a thread. Every other view is synchronous
and runs in Django's threads as under WSGI.

uvicorn rbank_site.asgi:application                          (make run)
gunicorn -c python:rbank_site.gunicorn_conf rbank_site.asgi:application   (production)
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rbank_site.settings")
application = get_asgi_application()
