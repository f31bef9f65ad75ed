"""Access rules as plain logic: host names, which clients the per-address limit counts, session credentials."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from app.config import Settings
from app.web.limits import AccessPolicy, host_name, limited_client
from app.web.ownership import KEY_FILE, SessionKeys


@pytest.mark.parametrize(
    ("header", "name"),
    [("Example.ORG:8000", "example.org"), ("example.org.", "example.org"), ("[::1]:8000", "::1"),
     ("127.0.0.1", "127.0.0.1"), ("[fe80::1]", "fe80::1")],
)
def test_host_name_drops_port_case_and_trailing_dot(header: str, name: str):
    assert host_name(header) == name


def test_allowed_hosts_are_the_bind_address_localhost_the_machine_and_the_setting():
    policy = AccessPolicy(Settings(host="192.0.2.10", allowed_hosts="chat.example.org, Other.example", llm_model="smollm2-135m"))
    for host in ("192.0.2.10:8000", "localhost", "127.0.0.1:80", "[::1]:8000", "app.localhost", "chat.example.org",
                 "other.example:443", None):
        assert policy.host_allowed(host), host
    for host in ("rebind.example:8000", "chat.example.org.evil.example", "192.0.2.11", ""):
        assert not policy.host_allowed(host), host
    assert AccessPolicy(Settings(allowed_hosts="*", llm_model="smollm2-135m")).host_allowed("anything.example")


def test_the_per_client_limit_counts_remote_addresses_not_this_machine():
    assert limited_client("203.0.113.7") and limited_client("2001:db8::1") and limited_client("proxy-label")
    assert not limited_client("127.0.0.1") and not limited_client("::1") and not limited_client(None)


def test_a_credential_proves_only_the_id_it_was_issued_for(tmp_path: Path):
    keys = SessionKeys(tmp_path)
    credential = keys.credential("sess_0123456789abcdef0123")
    assert keys.owned_id(credential) == "sess_0123456789abcdef0123"
    session_id, proof = credential.rsplit(".", 1)
    for forged in (session_id, f"{session_id}.", f"sess_other.{proof}", credential + "x", credential[:-1],
                   f"{session_id}.{proof}\u00e9", "", None, "x" * 500):
        assert keys.owned_id(forged) is None, forged
    assert keys.claimed_id({"x-voicechat-session": "bad"}, {"voicechat_session": credential}) == session_id


def test_the_key_is_made_once_owner_only_and_survives_a_restart(tmp_path: Path):
    first = SessionKeys(tmp_path).credential("sess_a1b2c3d4")
    assert stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode) == 0o600
    assert SessionKeys(tmp_path).owned_id(first) == "sess_a1b2c3d4"
    assert SessionKeys(tmp_path / "elsewhere").owned_id(first) is None
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    (tmp_path / KEY_FILE).write_bytes(b"short")
    with pytest.raises(RuntimeError, match="no valid session key"):
        SessionKeys(tmp_path)
