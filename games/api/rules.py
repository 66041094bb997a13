"""``GET /api/v1/rules/``: the rule presets and options a game may be made with."""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
)
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.lobby import rules_catalog
from games.models import StopMode


class RulesCatalogApi(APIView):
    """The rule presets and options a game may be made with: no sign-in needed."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        examples=[
            OpenApiExample(
                "Presets and options",
                value={
                    "presets": [
                        {"name": "pagat", "description": "The modern standard game…", "options": {}}
                    ],
                    "options": [
                        {
                            "name": "lenient_turn",
                            "description": "V8: you may turn your hand card…",
                            "default": False,
                            "values": [False, True],
                        }
                    ],
                    "stop_modes": ["referee", "classic"],
                },
                response_only=True,
            )
        ],
        summary="Rule presets and options (RULES.md §9)",
    )
    def get(self, request: Request) -> Response:
        return Response(
            {
                "presets": rules_catalog.presets(),
                "options": [asdict(option) for option in rules_catalog.options()],
                "stop_modes": StopMode.values,
            }
        )
