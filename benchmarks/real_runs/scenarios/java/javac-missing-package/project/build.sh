#!/usr/bin/env bash
set -euo pipefail
CP=$(find lib -name '*.jar' | tr '\n' ':')
echo "classpath: ${CP:-<empty>}"
mkdir -p out
javac --release 17 -cp "${CP}" -d out $(find src/main/java -name '*.java')
jar --create --file notifier.jar --main-class com.example.notify.Notifier -C out .
echo "built notifier.jar"
