# The server image: a static binary on distroless, run as a non-root user.
#
#   docker build -t graft .                                          # cmd/graft (the examples)
#   docker build -t todoservice --build-arg TARGET=./examples/todoservice .
#   docker run --rm -p 4000:4000 graft
#
# For a service of your own, copy this file beside your go.mod and set
# TARGET to your main package.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
# Dependencies first, so they are cached while the code changes.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGET=./cmd/graft
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/server ${TARGET}

# distroless/static: no shell, no package manager, CA certificates and
# time zones only. The nonroot tag runs as uid 65532.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/server /server
USER 65532:65532
ENV HOST=0.0.0.0 PORT=4000 LOG_FORMAT=json
EXPOSE 4000
ENTRYPOINT ["/server"]
