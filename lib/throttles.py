"""The API's throttles, which let a request through when their counters are out of reach.

The counters live in the cache, which is Redis when ``REDIS_URL`` is set. A Redis
outage must not answer every request with a 500: the request goes on uncounted and
the outage is logged.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.exceptions import RedisError
from rest_framework import throttling

logger = logging.getLogger(__name__)


class FailOpen(throttling.SimpleRateThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError) as exc:
            logger.warning("throttling skipped, the cache is out of reach: %s", exc)
            return True


class AnonRateThrottle(FailOpen, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(FailOpen, throttling.UserRateThrottle):
    pass
