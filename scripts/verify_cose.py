#!/usr/bin/env python3
"""Verify a trust-insights signedPayload (COSE_Sign1, ES256) independently of the Swift code.

Usage: verify_cose.py <cose_sign1.b64 | -> <public_key.pem> [--kid KID] [--print-payload]

The first argument is a file holding the message in base64 (standard or url-safe, padding optional), or '-' for
standard input. Exits 0 iff the message is a tagged COSE_Sign1 with nothing after it, whose protected header says
ES256 (alg -7) and names no critical headers (label 2), and whose signature over
Sig_structure = ["Signature1", protected, h'', payload] (RFC 9052 section 4.4) verifies under the key; with --kid,
the kid header must also match (without it, the key given is taken to be the message's). Exits 1 if invalid, 2 on
usage errors.
Needs: pip install cbor2 cryptography
"""
import base64
import io
import sys
from collections.abc import Mapping, Sequence

import cbor2
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

COSE_SIGN1_TAG = 18
ALG, CRIT, KID, ES256 = 1, 2, 4, -7


def decode_base64(text):
    text = "".join(text.split())
    text += "=" * (-len(text) % 4)
    return base64.b64decode(text.replace("-", "+").replace("_", "/"), validate=True)


def verify(message, public_key, expected_kid=None):
    """Returns the payload if the message is valid, otherwise raises ValueError."""
    stream = io.BytesIO(message)
    item = cbor2.CBORDecoder(stream).decode()
    if stream.tell() != len(message):
        raise ValueError("bytes after the COSE message")
    if not isinstance(item, cbor2.CBORTag) or item.tag != COSE_SIGN1_TAG:
        raise ValueError("not a tagged COSE_Sign1")
    if not isinstance(item.value, Sequence) or isinstance(item.value, (str, bytes)) or len(item.value) != 4:
        raise ValueError("COSE_Sign1 must be an array of four items")
    protected, unprotected, payload, signature = item.value
    if not isinstance(protected, bytes) or not isinstance(unprotected, Mapping):
        raise ValueError("malformed headers")
    if not isinstance(payload, bytes) or not isinstance(signature, bytes):
        raise ValueError("payload and signature must be byte strings")
    header = cbor2.loads(protected) if protected else {}
    if not isinstance(header, Mapping):
        raise ValueError("protected header is not a map")
    if header.get(ALG) != ES256 or ALG in unprotected:
        raise ValueError("alg is not a protected ES256")
    if CRIT in header:
        raise ValueError("critical headers this verifier does not know")
    if expected_kid is not None:
        kid = header.get(KID, unprotected.get(KID))
        if kid != expected_kid.encode():
            raise ValueError("kid mismatch")
    if len(signature) != 64:
        raise ValueError("ES256 signature must be 64 bytes")
    sig_structure = cbor2.dumps(["Signature1", protected, b"", payload])
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, sig_structure, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("signature does not verify")
    return payload


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    kid = None
    if "--kid" in argv:
        index = argv.index("--kid")
        if index + 1 >= len(argv):
            return 2
        kid = argv[index + 1]
        args = [a for a in args if a != kid]
    text = sys.stdin.read() if args[0] == "-" else open(args[0]).read()
    with open(args[1], "rb") as handle:
        public_key = serialization.load_pem_public_key(handle.read())
    if not isinstance(public_key, ec.EllipticCurvePublicKey) or public_key.curve.name != "secp256r1":
        print("public key is not P-256", file=sys.stderr)
        return 2
    try:
        payload = verify(decode_base64(text), public_key, kid)
    except (ValueError, cbor2.CBORDecodeError) as error:
        print(f"invalid: {error}", file=sys.stderr)
        return 1
    if "--print-payload" in argv:
        sys.stdout.buffer.write(payload)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
