@_exported import NarrateDomain
@_exported import class NarrateData.WAVWriter
@_exported import enum NarrateData.TemporaryFileRegistry
@_exported import protocol NarrateData.AudioCacheContract
@_exported import struct NarrateData.CachePruneResult
@_exported import enum NarrateData.TextFileReader
@_exported import protocol NarrateData.AudioStreamEncoder
@_exported import enum NarrateData.StreamFormat
@_exported import enum NarrateData.AudioFileRenderer
@_exported import enum NarrateData.BookUploadStore
@_exported import struct NarrateData.RemoteSpeechEngine
@_exported import struct NarrateData.RemoteAPIKey
@_exported import struct NarrateData.RemoteRetryPolicy
@_exported import class NarrateData.RemoteUsage
