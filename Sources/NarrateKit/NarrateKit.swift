@_exported import NarrateDomain
@_exported import class NarrateData.WAVWriter
@_exported import enum NarrateData.TemporaryFileRegistry
@_exported import protocol NarrateData.AudioCacheContract
@_exported import struct NarrateData.CachePruneResult
@_exported import enum NarrateData.TextFileReader
@_exported import struct NarrateData.BookExportOptions
@_exported import protocol NarrateData.AudioStreamEncoder
@_exported import enum NarrateData.StreamFormat
@_exported import enum NarrateData.AudioFileRenderer
@_exported import enum NarrateData.BookUploadStore
