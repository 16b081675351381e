// What an app needs besides the composition root's functions and `NarrateEnvironment`: the
// Domain (models, use case contracts), the WAV writer, the cache contract, the stream encoders,
// the remote engine's configuration types, and the document parsers' factory (what format a
// file's content shows). The front ends use nothing else of NarrateData.
@_exported import NarrateDomain
@_exported import class NarrateData.WAVWriter
@_exported import struct NarrateData.EntrySource
@_exported import protocol NarrateData.AudioCacheContract
@_exported import struct NarrateData.CachePruneResult
@_exported import struct NarrateData.CacheStoreSettings
@_exported import struct NarrateData.CacheStoreStatistics
@_exported import enum NarrateData.CacheStoreEvent
@_exported import enum NarrateData.CacheStoreDrain
@_exported import struct NarrateData.CacheStoreRecord
@_exported import class NarrateData.TieredAudioCache
@_exported import protocol NarrateData.AudioStreamEncoder
@_exported import enum NarrateData.StreamFormat
@_exported import enum NarrateData.SubtitleFormatter
@_exported import func NarrateData.writeFileAtomically
@_exported import struct NarrateData.RemoteSpeechEngine
@_exported import struct NarrateData.RemoteAPIKey
@_exported import struct NarrateData.RemoteRetryPolicy
@_exported import class NarrateData.RemoteUsage
@_exported import struct NarrateData.DocumentParserFactory
