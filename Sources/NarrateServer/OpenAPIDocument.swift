/// `GET /openapi.json`: an OpenAPI 3.1 description of the HTTP service. `OpenAPIDocumentTests`
/// checks that it names exactly the routes the router has, and `scripts/test-serve.sh` runs
/// schemathesis against it.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Narrate",
    "version": "1.0.0",
    "description": "Text to speech through eSpeak NG with a content-hashed audio cache: OpenAI's speech API, the book library, health and metrics. Errors are OpenAI-shaped JSON."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "security": [
    {},
    {
      "bearer": []
    }
  ],
  "paths": {
    "/v1/audio/speech": {
      "post": {
        "operationId": "createSpeech",
        "summary": "Speak a text (OpenAI's speech API).",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SpeechRequest"
              }
            }
          }
        },
        "parameters": [
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The audio, streamed as it is synthesized (or server-sent events with stream_format sse).",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            },
            "content": {
              "audio/mpeg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/ogg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/aac": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/flac": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/wav": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/pcm": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "304": {
            "description": "Not modified (If-None-Match named this ETag).",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "429": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/models": {
      "get": {
        "operationId": "listModels",
        "summary": "The accepted model names.",
        "responses": {
          "200": {
            "description": "The models.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ModelList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/models/{id}": {
      "get": {
        "operationId": "getModel",
        "summary": "One model.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The model.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Model"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/audio/voices": {
      "get": {
        "operationId": "listVoices",
        "summary": "OpenAI's voice names, the presets and every eSpeak voice.",
        "responses": {
          "200": {
            "description": "The voices.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/VoiceList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books": {
      "get": {
        "operationId": "listBooks",
        "summary": "The library.",
        "responses": {
          "200": {
            "description": "The books.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/BookList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "post": {
        "operationId": "addBook",
        "summary": "Add a book: the body is the file (EPUB, text, HTML or Markdown).",
        "parameters": [
          {
            "name": "filename",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The file's name; its extension picks the parser (else the Content-Type, else the bytes)."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/epub+zip": {
              "schema": {
                "type": "string",
                "format": "binary"
              }
            },
            "text/plain": {
              "schema": {
                "type": "string"
              }
            },
            "text/html": {
              "schema": {
                "type": "string"
              }
            },
            "text/markdown": {
              "schema": {
                "type": "string"
              }
            },
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "format": "binary"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/BookSummary"
                }
              }
            }
          },
          "200": {
            "description": "Already in the library.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/BookSummary"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "422": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "507": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books/{id}": {
      "get": {
        "operationId": "getBook",
        "summary": "One book.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          }
        ],
        "responses": {
          "200": {
            "description": "The book.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/BookDetail"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "delete": {
        "operationId": "deleteBook",
        "summary": "Remove a book from the library.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          }
        ],
        "responses": {
          "204": {
            "description": "Removed."
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books/{id}/toc": {
      "get": {
        "operationId": "getTableOfContents",
        "summary": "Chapters with their first pages.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          }
        ],
        "responses": {
          "200": {
            "description": "The contents.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TableOfContents"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books/{id}/pages": {
      "get": {
        "operationId": "listPages",
        "summary": "Every page with its chapter and word count.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          }
        ],
        "responses": {
          "200": {
            "description": "The pages.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PageList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books/{id}/pages/{page}/text": {
      "get": {
        "operationId": "getPageText",
        "summary": "A page's text.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          },
          {
            "$ref": "#/components/parameters/PageLabel"
          }
        ],
        "responses": {
          "200": {
            "description": "The text.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books/{id}/pages/{page}/audio": {
      "get": {
        "operationId": "getPageAudio",
        "summary": "A page's audio, from the cache when it is there.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          },
          {
            "$ref": "#/components/parameters/PageLabel"
          },
          {
            "$ref": "#/components/parameters/PageVoice"
          },
          {
            "$ref": "#/components/parameters/PageAudioFormat"
          },
          {
            "$ref": "#/components/parameters/Range"
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The whole audio.",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            },
            "content": {
              "audio/mpeg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/ogg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/aac": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/flac": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/wav": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/pcm": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              }
            }
          },
          "206": {
            "description": "One byte range.",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              },
              "Content-Range": {
                "schema": {
                  "type": "string"
                }
              }
            },
            "content": {
              "audio/mpeg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/ogg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/aac": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/flac": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/wav": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "audio/pcm": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              }
            }
          },
          "304": {
            "description": "Not modified.",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "416": {
            "$ref": "#/components/responses/Error"
          },
          "429": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          },
          "507": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "head": {
        "operationId": "getPageAudioHeaders",
        "summary": "A page's audio headers (length, ETag) without the bytes.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          },
          {
            "$ref": "#/components/parameters/PageLabel"
          },
          {
            "$ref": "#/components/parameters/PageVoice"
          },
          {
            "$ref": "#/components/parameters/PageAudioFormat"
          },
          {
            "$ref": "#/components/parameters/Range"
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The whole audio.",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            }
          },
          "206": {
            "description": "One byte range.",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              },
              "Content-Range": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "304": {
            "description": "Not modified.",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "416": {
            "$ref": "#/components/responses/Error"
          },
          "429": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          },
          "507": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/v1/books/{id}/progress": {
      "put": {
        "operationId": "updateProgress",
        "summary": "Save where the reader is.",
        "parameters": [
          {
            "$ref": "#/components/parameters/BookID"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ProgressUpdate"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Saved.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Progress"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "health",
        "summary": "The process answers.",
        "security": [
          {}
        ],
        "responses": {
          "200": {
            "description": "Alive.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "operationId": "ready",
        "summary": "The synthesis workers run.",
        "security": [
          {}
        ],
        "responses": {
          "200": {
            "description": "Ready.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus metrics.",
        "responses": {
          "200": {
            "description": "The metrics in Prometheus' text format.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openAPI",
        "summary": "This document.",
        "security": [
          {}
        ],
        "responses": {
          "200": {
            "description": "OpenAPI 3.1.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "Needed when the service was started with --api-key-file."
      }
    },
    "responses": {
      "Error": {
        "description": "An error in OpenAI's shape.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "object",
            "required": [
              "message",
              "type",
              "param",
              "code"
            ],
            "properties": {
              "message": {
                "type": "string"
              },
              "type": {
                "type": "string"
              },
              "param": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "code": {
                "type": [
                  "string",
                  "null"
                ]
              }
            }
          }
        }
      },
      "SpeechRequest": {
        "type": "object",
        "required": [
          "model",
          "input",
          "voice"
        ],
        "properties": {
          "model": {
            "type": "string",
            "enum": [
              "tts-1",
              "tts-1-hd",
              "gpt-4o-mini-tts",
              "narrate"
            ]
          },
          "input": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "description": "At most --max-input characters (4096 by default)."
          },
          "voice": {
            "oneOf": [
              {
                "type": "string",
                "minLength": 1
              },
              {
                "type": "object",
                "required": [
                  "id"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  }
                }
              }
            ],
            "description": "alloy, ash, ballad, coral, echo, fable, nova, onyx, sage, shimmer, verse, a Narrate preset or an eSpeak voice."
          },
          "response_format": {
            "type": "string",
            "enum": [
              "mp3",
              "opus",
              "aac",
              "flac",
              "wav",
              "pcm"
            ],
            "default": "mp3"
          },
          "speed": {
            "type": "number",
            "minimum": 0.25,
            "maximum": 4.0,
            "default": 1.0,
            "description": "Narrowed to what eSpeak can do with the voice (80–450 words per minute); outside it, 400 names the usable range."
          },
          "stream_format": {
            "type": "string",
            "enum": [
              "audio",
              "sse"
            ],
            "default": "audio"
          },
          "instructions": {
            "type": "string",
            "description": "Accepted; eSpeak cannot follow them."
          }
        }
      },
      "Model": {
        "type": "object",
        "required": [
          "id",
          "object",
          "created",
          "owned_by"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "object": {
            "const": "model"
          },
          "created": {
            "type": "integer"
          },
          "owned_by": {
            "type": "string"
          }
        }
      },
      "ModelList": {
        "type": "object",
        "required": [
          "object",
          "data"
        ],
        "properties": {
          "object": {
            "const": "list"
          },
          "data": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Model"
            }
          }
        }
      },
      "Voice": {
        "type": "object",
        "required": [
          "name",
          "voice",
          "kind"
        ],
        "properties": {
          "name": {
            "type": "string"
          },
          "voice": {
            "type": "string"
          },
          "language": {
            "type": "string"
          },
          "gender": {
            "type": "string",
            "enum": [
              "male",
              "female"
            ]
          },
          "kind": {
            "type": "string",
            "enum": [
              "openai",
              "preset",
              "espeak"
            ]
          },
          "description": {
            "type": "string"
          }
        }
      },
      "VoiceList": {
        "type": "object",
        "required": [
          "voices"
        ],
        "properties": {
          "voices": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Voice"
            }
          }
        }
      },
      "Progress": {
        "type": "object",
        "required": [
          "page_index"
        ],
        "properties": {
          "page_index": {
            "type": "integer",
            "minimum": 1
          },
          "page": {
            "type": "string"
          },
          "updated": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "ProgressUpdate": {
        "type": "object",
        "anyOf": [
          {
            "required": [
              "page"
            ]
          },
          {
            "required": [
              "page_index"
            ]
          }
        ],
        "properties": {
          "page": {
            "type": "string",
            "description": "A page label."
          },
          "page_index": {
            "type": "integer",
            "description": "A 1-based page index."
          }
        }
      },
      "BookSummary": {
        "type": "object",
        "required": [
          "id",
          "title",
          "authors",
          "format",
          "page_count",
          "chapter_count",
          "added"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "authors": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "language": {
            "type": "string"
          },
          "format": {
            "type": "string"
          },
          "page_count": {
            "type": "integer"
          },
          "chapter_count": {
            "type": "integer"
          },
          "progress": {
            "$ref": "#/components/schemas/Progress"
          },
          "added": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "BookList": {
        "type": "object",
        "required": [
          "books"
        ],
        "properties": {
          "books": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/BookSummary"
            }
          }
        }
      },
      "BookDetail": {
        "type": "object",
        "required": [
          "id",
          "title",
          "authors",
          "format",
          "page_count",
          "chapter_count",
          "skipped_words",
          "added"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "authors": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "language": {
            "type": "string"
          },
          "publisher": {
            "type": "string"
          },
          "date": {
            "type": "string"
          },
          "description": {
            "type": "string"
          },
          "format": {
            "type": "string"
          },
          "page_count": {
            "type": "integer"
          },
          "chapter_count": {
            "type": "integer"
          },
          "skipped_words": {
            "type": "integer",
            "description": "Words left out as not the book (boilerplate, contents lists, notes)."
          },
          "progress": {
            "$ref": "#/components/schemas/Progress"
          },
          "added": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "TableOfContents": {
        "type": "object",
        "required": [
          "book_id",
          "chapters"
        ],
        "properties": {
          "book_id": {
            "type": "string"
          },
          "chapters": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "title",
                "depth",
                "page_index",
                "page"
              ],
              "properties": {
                "title": {
                  "type": "string"
                },
                "depth": {
                  "type": "integer"
                },
                "page_index": {
                  "type": "integer"
                },
                "page": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "PageList": {
        "type": "object",
        "required": [
          "book_id",
          "pages"
        ],
        "properties": {
          "book_id": {
            "type": "string"
          },
          "pages": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "index",
                "page",
                "words"
              ],
              "properties": {
                "index": {
                  "type": "integer"
                },
                "page": {
                  "type": "string"
                },
                "chapter": {
                  "type": "string"
                },
                "words": {
                  "type": "integer"
                }
              }
            }
          }
        }
      },
      "Health": {
        "type": "object",
        "required": [
          "status"
        ],
        "properties": {
          "status": {
            "type": "string"
          },
          "workers": {
            "type": "integer"
          },
          "running": {
            "type": "integer"
          },
          "restarts": {
            "type": "integer"
          }
        }
      }
    },
    "parameters": {
      "BookID": {
        "name": "id",
        "in": "path",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^[0-9]+$"
        },
        "description": "The book's library id."
      },
      "PageLabel": {
        "name": "page",
        "in": "path",
        "required": true,
        "schema": {
          "type": "string",
          "minLength": 1
        },
        "description": "A printed page label, a 1-based index, or #index."
      },
      "PageVoice": {
        "name": "voice",
        "in": "query",
        "required": false,
        "schema": {
          "type": "string"
        },
        "description": "A voice name; by default the book's language chooses."
      },
      "PageAudioFormat": {
        "name": "format",
        "in": "query",
        "required": false,
        "schema": {
          "type": "string",
          "enum": [
            "mp3",
            "opus",
            "aac",
            "flac",
            "wav",
            "pcm"
          ],
          "default": "mp3"
        }
      },
      "Range": {
        "name": "Range",
        "in": "header",
        "required": false,
        "schema": {
          "type": "string"
        }
      },
      "IfNoneMatch": {
        "name": "If-None-Match",
        "in": "header",
        "required": false,
        "schema": {
          "type": "string"
        }
      }
    },
    "headers": {
      "ETag": {
        "schema": {
          "type": "string"
        },
        "description": "Strong validator of the text, voice, engine and format."
      }
    }
  }
}
"""#
}
