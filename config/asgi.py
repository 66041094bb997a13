"""The web's application: ASGI, so that an event stream (``/api/v1/stream/events/``)
waits on the event loop instead of holding a thread. Every other view is synchronous
and runs in Django's threads as under WSGI.

uvicorn config.asgi:application                          (make run)
gunicorn -c python:config.gunicorn_conf config.asgi:application   (production)
"""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# WhiteNoise answers a static file with a file's (synchronous) iterator, which Django
# reads in a thread under ASGI, as it says on every such response: expected, not news.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)
application = get_asgi_application()
