"""REST API of the caller's webhooks, under ``/api/v1/me/webhooks/`` (docs/webhooks.md)."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.feed.events import KINDS
from lib import fields
from lib.api import player_of
from lib.openapi import NO_BODY, errors
from lib.pagination import ListApi
from lib.serializers import NoBody, RequestBody

from . import services
from .addresses import MAX_URL_LENGTH, URL_PATTERN
from .models import Delivery, Webhook

WEBHOOK = {
    "id": 3,
    "url": "https://bot.example.com/rbank/events",
    "kinds": ["your_turn", "game_over"],
    "active": True,
    "created_at": "2026-11-22T09:00:00Z",
    "consecutive_failures": 0,
    "disabled_at": None,
    "disabled_reason": "",
}
SECRET = "whsec_Jx3q0Zr5VbN2uY8tLk4mPa7cWd9eFh1gSi6oTn0RjXw"
DELIVERY = {
    "id": 812,
    "event": 4711,
    "kind": "your_turn",
    "game": 42,
    "status": "delivered",
    "attempts": 1,
    "response_status": 200,
    "response_body": "ok",
    "last_error": "",
    "duration_ms": 84,
    "created_at": "2026-11-22T10:12:00Z",
    "last_attempt_at": "2026-11-22T10:12:00Z",
    "delivered_at": "2026-11-22T10:12:00Z",
    "next_attempt_at": None,
}
WEBHOOK_EXAMPLE = OpenApiExample("A webhook", value=WEBHOOK, response_only=True)
NEW_WEBHOOK_EXAMPLE = OpenApiExample(
    "The secret, shown once", value={**WEBHOOK, "secret": SECRET}, response_only=True
)
DELIVERY_EXAMPLE = OpenApiExample("A delivery", value=DELIVERY, response_only=True)
QUEUED_EXAMPLE = OpenApiExample(
    "Queued",
    value={
        **DELIVERY,
        "id": 813,
        "status": "pending",
        "attempts": 0,
        "response_status": None,
        "response_body": "",
        "duration_ms": None,
        "last_attempt_at": None,
        "delivered_at": None,
    },
    response_only=True,
    status_codes=[201],
)


class WebhookSerializer(RequestBody):
    id = fields.IntegerField(read_only=True)
    url = fields.CharField(
        max_length=MAX_URL_LENGTH,
        validators=[RegexValidator(URL_PATTERN)],
        help_text="Where deliveries are POSTed: https:// (http:// only where the server "
        "allows it), a public host name, no user, password or fragment",
    )
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(KINDS)),
        min_length=1,
        max_length=len(KINDS),
        help_text="The event kinds to deliver (docs/api-events.md), one or more",
    )
    active = fields.BooleanField(
        required=False,
        help_text="Deliveries are made (off: none are queued); turned off by the server "
        "after repeated failures, and on again by setting it",
    )
    created_at = serializers.DateTimeField(read_only=True)
    consecutive_failures = fields.IntegerField(
        read_only=True, help_text="Failed attempts since the last delivery that went through"
    )
    disabled_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When the server turned it off"
    )
    disabled_reason = fields.CharField(read_only=True, help_text="The last failure's error")


class NewWebhookSerializer(WebhookSerializer):
    """A webhook just made, or its secret just replaced: the only answers with it."""

    secret = fields.CharField(
        read_only=True, help_text="Signs every delivery (Rbank-Signature): shown once"
    )


class DeliverySerializer(serializers.Serializer[dict[str, Any]]):
    id = fields.IntegerField(help_text="Also the Rbank-Delivery header")
    event = fields.IntegerField(allow_null=True, help_text="The event's id; null for a ping")
    kind = fields.CharField(help_text="The event's kind, or ping")
    game = fields.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Delivery.Status.choices)
    attempts = fields.IntegerField()
    response_status = fields.IntegerField(allow_null=True, help_text="The last answer's status")
    response_body = fields.CharField(help_text="The last answer's first kilobyte")
    last_error = fields.CharField(help_text="Why the last attempt failed")
    duration_ms = fields.IntegerField(allow_null=True, help_text="The last attempt's time")
    created_at = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True)


def _webhook(webhook: Webhook, *, with_secret: bool = False) -> dict[str, Any]:
    values = {
        "id": webhook.pk,
        "url": webhook.url,
        "kinds": webhook.kinds,
        "active": webhook.active,
        "created_at": webhook.created_at,
        "consecutive_failures": webhook.consecutive_failures,
        "disabled_at": webhook.disabled_at,
        "disabled_reason": webhook.disabled_reason,
    }
    if with_secret:
        return NewWebhookSerializer({**values, "secret": webhook.secret}).data
    return WebhookSerializer(values).data


def _delivery(row: Delivery) -> dict[str, Any]:
    return DeliverySerializer(
        {
            "id": row.pk,
            "event": row.event_id,
            "kind": row.kind,
            "game": row.game_id,
            "status": row.status,
            "attempts": row.attempts,
            "response_status": row.response_status,
            "response_body": row.response_body,
            "last_error": row.last_error,
            "duration_ms": row.duration_ms,
            "created_at": row.created_at,
            "last_attempt_at": row.claimed_at,
            "delivered_at": row.delivered_at,
            "next_attempt_at": row.next_attempt_at,
        }
    ).data


class WebhookListApi(ListApi):
    @extend_schema(
        responses={200: WebhookSerializer(many=True), **errors(400)},
        examples=[WEBHOOK_EXAMPLE],
        summary="My webhooks",
    )
    def get(self, request: Request) -> Response:
        mine = Webhook.objects.filter(user=player_of(request)).order_by("pk")
        return self.page(request, mine, _webhook)

    @extend_schema(
        request=WebhookSerializer,
        responses={201: NewWebhookSerializer, **errors(400, 409, 413)},
        examples=[
            OpenApiExample(
                "My turns and results",
                value={"url": WEBHOOK["url"], "kinds": WEBHOOK["kinds"]},
                request_only=True,
            ),
            NEW_WEBHOOK_EXAMPLE,
        ],
        summary="New webhook (its secret is shown once); 409 URL_REFUSED for a host "
        "that is not public, TOO_MANY_WEBHOOKS past five",
    )
    def post(self, request: Request) -> Response:
        data = WebhookSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = player_of(request)
        webhook = services.create_webhook(
            user, values["url"], values["kinds"], active=values.get("active", True)
        )
        return Response(_webhook(webhook, with_secret=True), status=201)


class WebhookDetailApi(APIView):
    @extend_schema(
        responses={200: WebhookSerializer, **errors(404)},
        examples=[WEBHOOK_EXAMPLE],
        summary="A webhook of mine (never its secret)",
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        return Response(_webhook(services.webhook_of(player_of(request), webhook_id)))

    @extend_schema(
        request=WebhookSerializer,
        responses={200: WebhookSerializer, **errors(400, 404, 409, 413)},
        examples=[
            OpenApiExample("Turn it on again", value={"active": True}, request_only=True),
            OpenApiExample("Every kind of event", value={"kinds": list(KINDS)}, request_only=True),
            WEBHOOK_EXAMPLE,
        ],
        summary="Change a webhook's URL or kinds, turn it off or on (on again, it "
        "resumes with its pending deliveries)",
    )
    def patch(self, request: Request, webhook_id: int) -> Response:
        data = WebhookSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        webhook = services.update_webhook(player_of(request), webhook_id, dict(data.validated_data))
        return Response(_webhook(webhook))

    @extend_schema(
        responses={204: None, **errors(400, 404, 413)},
        examples=[OpenApiExample("Deleted", value=None, response_only=True, status_codes=[204])],
        summary="Delete a webhook and its delivery log",
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        services.delete_webhook(player_of(request), webhook_id)
        return Response(status=204)


class WebhookSecretApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={200: NewWebhookSerializer, **errors(400, 404, 413)},
        examples=[NO_BODY, NEW_WEBHOOK_EXAMPLE],
        summary="Replace a webhook's secret (the new one is shown once, in force at once)",
    )
    def post(self, request: Request, webhook_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        webhook = services.rotate_secret(player_of(request), webhook_id)
        return Response(_webhook(webhook, with_secret=True))


class WebhookPingApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={201: DeliverySerializer, **errors(400, 404, 409, 413)},
        examples=[
            NO_BODY,
            OpenApiExample(
                "A ping, queued",
                value={**QUEUED_EXAMPLE.value, "event": None, "kind": "ping", "game": None},
                response_only=True,
                status_codes=[201],
            ),
        ],
        summary="Queue a ping delivery, to try the receiver (its outcome in the log)",
    )
    def post(self, request: Request, webhook_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        return Response(_delivery(services.ping(player_of(request), webhook_id)), status=201)


class DeliveryListApi(ListApi):
    @extend_schema(
        responses={200: DeliverySerializer(many=True), **errors(400, 404)},
        examples=[DELIVERY_EXAMPLE],
        summary="A webhook's delivery log, newest first",
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        webhook = services.webhook_of(player_of(request), webhook_id)
        return self.page(request, webhook.deliveries.order_by("-pk"), _delivery)


class RedeliverApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={201: DeliverySerializer, **errors(400, 404, 409, 413)},
        examples=[NO_BODY, QUEUED_EXAMPLE],
        summary="Send a delivery's event again, as a new delivery at the end of the queue",
    )
    def post(self, request: Request, webhook_id: int, delivery_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        row = services.redeliver(player_of(request), webhook_id, delivery_id)
        return Response(_delivery(row), status=201)
