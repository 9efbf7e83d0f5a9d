#!/usr/bin/env python3
"""Writes the Swift file SwiftPM generates for `.embedInCode` resources (a `PackageResources`
struct with one `[UInt8]` per file), so that NativeAdsRPC and PNGImages compile outside SwiftPM.

Usage: embed-resources.py OUT.swift FILE...
"""
import os
import re
import sys

out, files = sys.argv[1], sys.argv[2:]
lines = ["struct PackageResources {"]
for path in files:
    name = re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(path))
    data = open(path, "rb").read()
    lines.append(f"static let {name}: [UInt8] = [{','.join(str(b) for b in data)}]")
lines.append("}")
tmp = out + ".tmp"
with open(tmp, "w") as f:
    f.write("\n".join(lines) + "\n")
os.replace(tmp, out)
